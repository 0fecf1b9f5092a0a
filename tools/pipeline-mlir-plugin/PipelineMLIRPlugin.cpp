//===- PipelineMLIRPlugin.cpp - plugin for upstream mlir-opt --------------===//
//
// The `pipeline` dialect, the project's passes and its named pass pipelines
// as a plugin of upstream tools built on MlirOptMain:
//
//   mlir-opt --load-dialect-plugin=PipelineMLIRPlugin.so
//            --load-pass-plugin=PipelineMLIRPlugin.so
//            --pass-pipeline='builtin.module(pipeline-verify-linearity)'
//
// The dialect entry point lets the tool parse and print pipeline programs;
// the pass entry point registers `pipeline-*` and `convert-pipeline-to-nvgpu`
// and the named pipelines. The tool must load libMLIR.so, the library the
// plugin is linked against (see docs/editors.md).
//
//===----------------------------------------------------------------------===//

#include "pipeline/InitAllPipeline.h"
#include "pipeline/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "PipelineMLIR", PIPELINE_MLIR_VERSION,
          [](mlir::DialectRegistry *registry) {
            pmlir::registerAllPipelineDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "PipelineMLIR", PIPELINE_MLIR_VERSION,
          []() { pmlir::registerAllPipelinePasses(); }};
}
