# pipeline_mlir_install(TARGETS <targets...> <install(TARGETS) arguments...>)
#
# install(TARGETS ...) that also adds the targets to the build target
# `pipeline-mlir-installable`, which scripts/build.sh builds: whatever
# `cmake --install` copies is built by the build script, so the README's
# embedding recipe (build, then install) finds every file. Every target the
# project installs goes through here (scripts/check-install.sh checks it).
function(pipeline_mlir_install)
  set(targets "")
  set(rest "")
  set(in_targets FALSE)
  foreach(arg IN LISTS ARGN)
    if(arg STREQUAL "TARGETS")
      set(in_targets TRUE)
    elseif(in_targets AND arg MATCHES "^(EXPORT|LIBRARY|RUNTIME|ARCHIVE|COMPONENT|DESTINATION|INCLUDES|PUBLIC_HEADER|OPTIONAL)$")
      set(in_targets FALSE)
      list(APPEND rest "${arg}")
    elseif(in_targets)
      list(APPEND targets "${arg}")
    else()
      list(APPEND rest "${arg}")
    endif()
  endforeach()
  if(NOT targets)
    message(FATAL_ERROR "pipeline_mlir_install: no TARGETS")
  endif()
  install(TARGETS ${targets} ${rest})
  set_property(GLOBAL APPEND PROPERTY PIPELINE_MLIR_INSTALLED_TARGETS ${targets})
endfunction()
