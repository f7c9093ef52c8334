# Writes OUT (a C++ file defining gluon::build::git) from the working tree at SOURCE_DIR, at every
# build rather than at configure time, so that a rebuild after an edit stamps the binary (and the
# tune cache's build key) with what it was built from. configure_file rewrites OUT only when the
# text changes, so an unchanged tree recompiles nothing.
execute_process(COMMAND git describe --always --dirty --tags
                WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE GLUON_GIT_DESCRIBE OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT GLUON_GIT_DESCRIBE)
  set(GLUON_GIT_DESCRIBE "unknown")
elseif(GLUON_GIT_DESCRIBE MATCHES "-dirty$")
  # A dirty tree (an edit not committed yet, or a copy synced onto another checkout, as on the
  # GPU machine, which reports that checkout's commit): add the git tree id of the working tree's
  # contents (tracked and untracked, not ignored), which equals `git log --format=%T` of the
  # commit holding the same files. It is computed in a throw-away copy of the index (whose stat
  # data spares rehashing unchanged files) and writes only tree and blob objects.
  set(_index ${BINARY_DIR}/gluon-tree.index)
  file(REMOVE ${_index})
  execute_process(COMMAND git rev-parse --git-path index WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE _real_index OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_real_index AND NOT IS_ABSOLUTE "${_real_index}")
    set(_real_index ${SOURCE_DIR}/${_real_index})
  endif()
  if(_real_index AND EXISTS ${_real_index})
    file(COPY_FILE ${_real_index} ${_index})
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env GIT_INDEX_FILE=${_index} git add -A
                  WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
  if(_rc EQUAL 0)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env GIT_INDEX_FILE=${_index} git write-tree
                    WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE _tree
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_tree)
      string(SUBSTRING "${_tree}" 0 12 _tree)
      string(APPEND GLUON_GIT_DESCRIBE " tree ${_tree}")
    endif()
  endif()
  file(REMOVE ${_index})
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/build_stamp.cpp.in ${OUT} @ONLY)
