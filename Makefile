# The two commands of the README:
#   make run    installs what is missing, builds, runs the default job (GPU if present, else CPU)
#   make test   installs what is missing, builds, runs every test
# Other targets: build, cuda (compile the CUDA preset), clean.

NVCC := $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
HAVE_GPU := $(shell nvidia-smi -L 2>/dev/null | grep -q GPU && echo yes)
ifeq ($(and $(NVCC),$(HAVE_GPU)),)
  PRESET ?= cpu
  BUILD_DIR ?= build
  RUN_LATTICE ?= 8,8,8,16
else
  PRESET ?= cuda
  BUILD_DIR ?= build-cuda
  RUN_LATTICE ?= 32,32,32,64
  export PATH := $(dir $(NVCC)):$(PATH)
endif
JOBS ?= $(shell nproc)
RUN_DIR ?= $(BUILD_DIR)/run

.PHONY: all deps configure build run test cuda clean
all: build

deps:
	@scripts/install-deps.sh

$(BUILD_DIR)/CMakeCache.txt: | deps
	cmake --preset $(PRESET)

configure: $(BUILD_DIR)/CMakeCache.txt

build: deps configure
	cmake --build $(BUILD_DIR) -j $(JOBS)
	@if [ "$(BUILD_DIR)" != build ]; then mkdir -p build/bin && ln -sf ../../$(BUILD_DIR)/bin/gluon build/bin/gluon; fi

run: build
	@mkdir -p $(RUN_DIR)
	build/bin/gluon info
	build/bin/gluon gauge --start weak --lattice $(RUN_LATTICE) --seed 2026 --save $(RUN_DIR)/weak.nersc
	build/bin/gluon solve --gauge $(RUN_DIR)/weak.nersc --operator clover --kappa 0.12 --csw 1.0 \
	  --source 0,0,0,0 --tol 1e-10 --sloppy-precision single --recon 12 \
	  --save-correlators $(RUN_DIR)/correlators.json

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# Compiles (without running) the CUDA build, so that GPU code cannot rot on machines without a GPU.
cuda: deps
	PATH=$(dir $(NVCC)):$$PATH cmake --preset cuda
	cmake --build build-cuda -j $(JOBS)

clean:
	rm -rf build build-cuda build-mpi
