#pragma once
// The library's on/off switches read from the environment (A/B runs and escape hatches:
// GLUON_PDL, GLUON_HUGE_PAGES, GLUON_DEVICE_CACHE, GLUON_WILSON_FOLD, GLUON_SHIFT_FOLD,
// GLUON_CG_LOOKAHEAD, GLUON_MULTISHIFT_TOGETHER; docs/bench.md and docs/cli.md say what each does).
//
//   env_switched_off(name)  true when the variable is "0"; false when it is unset or empty; any
//                           other value is an InputError naming the variable and the value, so
//                           that a mistyped switch (=off, =false) is not silently ignored.
namespace gluon::runtime {

bool env_switched_off(const char* name);

}  // namespace gluon::runtime
