# A precompiled header for the sanitizer build only (docs/robustness.md,
# "Time in CI"). scripts/test-sanitizers.sh passes
# -DCMAKE_PROJECT_INCLUDE=<this file>; the plain build never reads it.
#
# Most of the build time of a project source file is clang parsing MLIR's
# headers (about 12 of 20 s for the largest file with ASan + UBSan +
# coverage); the sanitizer build parses them once, into one PCH that every
# C++ target of lib/, tools/ and fuzz/ reuses (they share one set of flags).
# The code compiled is the same: the PCH holds only upstream headers, which
# every file includes anyway, parsed before the file's own lines.

set(PIPELINE_SANITIZER_PCH_HEADERS
  <mlir/Dialect/Arith/IR/Arith.h>
  <mlir/Dialect/ControlFlow/IR/ControlFlowOps.h>
  <mlir/Dialect/GPU/IR/GPUDialect.h>
  <mlir/Dialect/LLVMIR/LLVMDialect.h>
  <mlir/Dialect/LLVMIR/NVVMDialect.h>
  <mlir/Dialect/MemRef/IR/MemRef.h>
  <mlir/Dialect/NVGPU/IR/NVGPUDialect.h>
  <mlir/Dialect/SCF/IR/SCF.h>
  <mlir/IR/Builders.h>
  <mlir/IR/BuiltinOps.h>
  <mlir/IR/Diagnostics.h>
  <mlir/Interfaces/FunctionInterfaces.h>
  <mlir/Parser/Parser.h>
  <mlir/Pass/PassManager.h>
  <mlir/Transforms/DialectConversion.h>
)

function(pipeline_sanitizer_pch)
  # Every target of the project, by directory.
  set(targets)
  set(dirs "${CMAKE_SOURCE_DIR}")
  while(dirs)
    list(POP_FRONT dirs dir)
    get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
    list(APPEND dirs ${subdirs})
    get_property(dir_targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
    list(APPEND targets ${dir_targets})
  endwhile()

  # The PCH is built with an empty file of its own (in the build directory:
  # LLVM's CMake wants every source file of fuzz/ in its target).
  set(empty "${CMAKE_BINARY_DIR}/sanitizer-pch/empty.cpp")
  if(NOT EXISTS "${empty}")
    file(WRITE "${empty}" "// The object that carries the sanitizer build's PCH.\n")
  endif()
  add_library(pipeline-sanitizer-pch OBJECT "${empty}")
  llvm_update_compile_flags(pipeline-sanitizer-pch)
  target_precompile_headers(pipeline-sanitizer-pch PRIVATE
    ${PIPELINE_SANITIZER_PCH_HEADERS})

  set(used)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$"
       OR target STREQUAL "pipeline-sanitizer-pch")
      continue()
    endif()
    # Only the project's sanitized code (not the GPU test programs, the
    # host runtime or the benchmarks, built with flags of their own), and
    # only targets of C++ sources.
    get_target_property(source_dir ${target} SOURCE_DIR)
    file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${source_dir}")
    if(NOT rel MATCHES "^(lib|tools|fuzz)(/|$)" OR rel MATCHES "^lib/CAPI")
      continue()
    endif()
    get_target_property(sources ${target} SOURCES)
    if(NOT sources)
      continue()
    endif()
    set(cxx_only TRUE)
    set(has_cxx FALSE)
    foreach(source IN LISTS sources)
      if(source MATCHES "\\.cpp$")
        set(has_cxx TRUE)
      elseif(source MATCHES "\\.(c|cc|cxx|cu|S|s)$")
        set(cxx_only FALSE)
      endif()
    endforeach()
    if(cxx_only AND has_cxx)
      target_precompile_headers(${target} REUSE_FROM pipeline-sanitizer-pch)
      list(APPEND used ${target})
    endif()
  endforeach()
  list(LENGTH used count)
  message(STATUS "Sanitizer build: one precompiled header for ${count} targets")
endfunction()

cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL pipeline_sanitizer_pch)
