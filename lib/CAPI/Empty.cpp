//===- Empty.cpp - libPipelineMLIRUpstreamCAPI.so
//--------------------------===//
//
// The library holds MLIR's C API for IR, linked whole from Debian's static
// archive (see CMakeLists.txt); it has no source of its own.
//
//===----------------------------------------------------------------------===//
