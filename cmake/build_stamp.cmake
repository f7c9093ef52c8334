# Writes OUT (a C++ file defining gluon::build::git and gluon::build::code) from the working tree
# at SOURCE_DIR, at every build rather than at configure time, so that a rebuild after an edit
# stamps the binary (and the tune cache's build key) with what it was built from. configure_file
# rewrites OUT only when the text changes, so an unchanged tree recompiles nothing.
#   git   `git describe` of HEAD, plus "-dirty tree <id>" when the working tree differs from it:
#         the git tree id of its contents (tracked and untracked, not ignored), which equals
#         `git log --format=%T` of the commit holding the same files (the GPU machine's copy of a
#         tree reports its own checkout's commit, so the tree id is what names the copy).
#   code  a hash of the tree ids of what the binary is compiled from (src, include, apps, cmake
#         and the CMake files): the tune cache's build key, which an edit to the docs, the tests
#         or the benchmark results leaves alone.
# --no-optional-locks: a build must not take the index lock from a `git commit` running beside it.
set(_git git --no-optional-locks)
execute_process(COMMAND ${_git} describe --always --tags WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE GLUON_GIT_DESCRIBE OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
set(_treeish HEAD)
if(NOT GLUON_GIT_DESCRIBE)
  set(GLUON_GIT_DESCRIBE "unknown")
  set(_treeish "")
else()
  execute_process(COMMAND ${_git} status --porcelain WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE _status OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_status)
    # The tree id is computed in a throw-away copy of the index (whose stat data spares rehashing
    # unchanged files); it writes only tree and blob objects.
    set(_index ${BINARY_DIR}/gluon-tree.index)
    file(REMOVE ${_index})
    execute_process(COMMAND ${_git} rev-parse --git-path index WORKING_DIRECTORY ${SOURCE_DIR}
                    OUTPUT_VARIABLE _real_index OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_real_index AND NOT IS_ABSOLUTE "${_real_index}")
      set(_real_index ${SOURCE_DIR}/${_real_index})
    endif()
    if(_real_index AND EXISTS ${_real_index})
      file(COPY_FILE ${_real_index} ${_index})
    endif()
    set(_tree "")
    execute_process(COMMAND ${CMAKE_COMMAND} -E env GIT_INDEX_FILE=${_index} git add -A
                    WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
    if(_rc EQUAL 0)
      execute_process(COMMAND ${CMAKE_COMMAND} -E env GIT_INDEX_FILE=${_index} git write-tree
                      WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE _tree
                      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    endif()
    file(REMOVE ${_index})
    set(_treeish "${_tree}")
    if(_tree)
      string(SUBSTRING "${_tree}" 0 12 _short)
      string(APPEND GLUON_GIT_DESCRIBE "-dirty tree ${_short}")
    else()
      string(APPEND GLUON_GIT_DESCRIBE "-dirty")
    endif()
  endif()
endif()
set(_ids "")
if(_treeish)
  foreach(_path src include apps cmake CMakeLists.txt CMakePresets.json)
    execute_process(COMMAND ${_git} rev-parse ${_treeish}:${_path} WORKING_DIRECTORY ${SOURCE_DIR}
                    OUTPUT_VARIABLE _id OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    string(APPEND _ids "${_path} ${_id}\n")
  endforeach()
endif()
if(_ids)
  string(SHA1 GLUON_CODE_ID "${_ids}")
  string(SUBSTRING "${GLUON_CODE_ID}" 0 12 GLUON_CODE_ID)
else()
  set(GLUON_CODE_ID "${GLUON_GIT_DESCRIBE}")  # no git: the version line is all there is
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/build_stamp.cpp.in ${OUT} @ONLY)
