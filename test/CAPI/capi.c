// The C API of pipeline-mlir, used the way a host language uses it.
// RUN: pipeline-capi-test 2>&1 | FileCheck %s

#include "pipeline-c/Compiler.h"
#include "pipeline-c/Dialects.h"
#include "pipeline-c/Passes.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

static void printChunk(MlirStringRef chunk, void *userData) {
  fwrite(chunk.data, 1, chunk.length, (FILE *)userData);
}

static void printDiagnostics(PmlirResult result) {
  for (intptr_t i = 0, e = pmlirResultGetNumDiagnostics(result); i < e; ++i) {
    MlirStringRef file = pmlirResultGetDiagnosticFile(result, i);
    MlirStringRef message = pmlirResultGetDiagnosticMessage(result, i);
    const char *kind = "remark";
    switch (pmlirResultGetDiagnosticSeverity(result, i)) {
    case MlirDiagnosticError: kind = "error"; break;
    case MlirDiagnosticWarning: kind = "warning"; break;
    case MlirDiagnosticNote: kind = "note"; break;
    default: break;
    }
    printf("diag %ld parent %ld %s at %.*s:%u:%u: %.*s\n", (long)i,
           (long)pmlirResultGetDiagnosticParent(result, i), kind,
           (int)file.length, file.data, pmlirResultGetDiagnosticLine(result, i),
           pmlirResultGetDiagnosticColumn(result, i), (int)message.length,
           message.data);
  }
}

static const char *kGood =
    "!P = !pipeline.pipeline<stages = 2>\n"
    "!Smem = memref<?xi8, #gpu.address_space<workgroup>>\n"
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @k {\n"
    "    gpu.func @ring() kernel {\n"
    "      %c0 = arith.constant 0 : index\n"
    "      %tid = gpu.thread_id x\n"
    "      %smem = gpu.dynamic_shared_memory : !Smem\n"
    "      %p = pipeline.create in %smem[%c0] : !Smem -> !P\n"
    "      pipeline.init_mbars %p producer 32 consumer 32 : !P\n"
    "      %c32 = arith.constant 32 : index\n"
    "      %is_producer = arith.cmpi ult, %tid, %c32 : index\n"
    "      scf.if %is_producer {\n"
    "        pipeline.produce %p as %s : !P {\n"
    "          pipeline.arrive %s : !pipeline.stage<producer, !P>\n"
    "        }\n"
    "        pipeline.drain_producer %p : !P\n"
    "      } else {\n"
    "        pipeline.consume %p as %s : !P {\n"
    "        }\n"
    "      }\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "}\n";

// A kernel taking an i2 and a memref whose size is known at launch only.
static const char *kDynamic =
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @k {\n"
    "    gpu.func @dyn(%n: i2, %a: memref<?xf32>, %o: memref<4xi32>) kernel {\n"
    "      %c0 = arith.constant 0 : index\n"
    "      %d = memref.dim %a, %c0 : memref<?xf32>\n"
    "      %e = arith.extui %n : i2 to i32\n"
    "      %i = arith.index_cast %d : index to i32\n"
    "      %s = arith.addi %e, %i : i32\n"
    "      memref.store %s, %o[%c0] : memref<4xi32>\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "}\n";

// Line 5 acquires a stage that line 6 leaks.
static const char *kLeak =
    "!P = !pipeline.pipeline<stages = 2>\n"
    "!Smem = memref<?xi8, #gpu.address_space<workgroup>>\n"
    "func.func @leak(%smem: !Smem, %c0: index) {\n"
    "  %p = pipeline.create in %smem[%c0] : !Smem -> !P\n"
    "  %s = pipeline.acquire_producer %p : !P\n"
    "  return\n"
    "}\n";

int main(void) {
  MlirStringRef version = pmlirGetVersion();
  // CHECK: version: pipeline-mlir {{[0-9]+\.[0-9]+\.[0-9]+}}
  printf("version: %.*s\n", (int)version.length, version.data);

  // Upstream conventions: a registry, the dialect handle, a parse.
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  pmlirRegisterCompilerDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  MlirDialectHandle handle = mlirGetDialectHandle__pipeline__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  // CHECK: dialect: pipeline
  printf("dialect: %.*s\n", (int)ns.length, ns.data);
  mlirDialectHandleLoadDialect(handle, ctx);

  MlirModule leak = mlirModuleCreateParse(ctx, str(kLeak));
  // CHECK: parsed leak: 1
  printf("parsed leak: %d\n", !mlirModuleIsNull(leak));

  // The linearity checker through a pass manager of the C API.
  pmlirRegisterAllPasses();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm, str("builtin.module(pipeline-verify-linearity)"), printChunk, stdout);
  // CHECK: pipeline parsed: 1
  printf("pipeline parsed: %d\n", mlirLogicalResultIsSuccess(parsed));
  mlirPassManagerDestroy(pm);

  // The same check, diagnostics collected in a result.
  PmlirResult checked = pmlirCheckModule(leak);
  // CHECK: check leak: 0
  printf("check leak: %d\n", pmlirResultSucceeded(checked));
  // The parse of mlirModuleCreateParse names the buffer "-".
  // CHECK: diag 0 parent -1 error at -:6:3: stage handle leaks
  // CHECK-NEXT: diag 1 parent 0 note at -:5:8: stage acquired here
  printDiagnostics(checked);
  pmlirResultDestroy(checked);
  mlirModuleDestroy(leak);
  mlirContextDestroy(ctx);

  // From source, with the caller's file name in every location.
  PmlirResult source = pmlirCheckSource(str(kLeak), str("kernel.py"));
  // CHECK: check source: 0
  // CHECK-NEXT: diag 0 parent -1 error at kernel.py:6:3: stage handle leaks
  // CHECK-NEXT: diag 1 parent 0 note at kernel.py:5:8: stage acquired here
  printf("check source: %d\n", pmlirResultSucceeded(source));
  printDiagnostics(source);
  pmlirResultDestroy(source);

  PmlirResult good = pmlirCheckSource(str(kGood), str("good.mlir"));
  // CHECK: check good: 1 diagnostics 0
  printf("check good: %d diagnostics %ld\n", pmlirResultSucceeded(good),
         (long)pmlirResultGetNumDiagnostics(good));
  // Round trip: the printed module holds the ops in custom form.
  // CHECK: round trip: pipeline.produce %{{.*}} as %{{.*}} : !pipeline.pipeline<stages = 2>
  MlirStringRef ir = pmlirResultGetIR(good);
  const char *produce = strstr(ir.data, "pipeline.produce");
  const char *eol = produce ? strchr(produce, '\n') : NULL;
  printf("round trip: %.*s\n", produce && eol ? (int)(eol - produce) : 0,
         produce ? produce : "");
  pmlirResultDestroy(good);

  // PTX only: no toolkit needed.
  // The options and their defaults, as the pass pipelines print them.
  // CHECK: defaults: {{.*}}chip=sm_100a{{.*}} hang-keep-waiting=false{{.*}} hang-report=0{{.*}} opt-level=3
  MlirStringRef defaults = pmlirGetCompileOptionDefaults();
  printf("defaults: %.*s\n", (int)defaults.length, defaults.data);

  MlirStringRef sm90 = str("chip=sm_90a");
  PmlirResult ptx =
      pmlirCompileSource(str(kGood), str("good.mlir"), sm90, /*assemble=*/false);
  // CHECK: compile sm_90a: 1 modules 1 name k
  // CHECK: ptx: .target sm_90a
  // CHECK: ptx: mbarrier.try_wait
  // CHECK: cubin bytes: 0
  printf("compile sm_90a: %d modules %ld", pmlirResultSucceeded(ptx),
         (long)pmlirResultGetNumModules(ptx));
  if (pmlirResultGetNumModules(ptx) == 1) {
    MlirStringRef name = pmlirResultGetModuleName(ptx, 0);
    MlirStringRef text = pmlirResultGetModulePTX(ptx, 0);
    printf(" name %.*s\n", (int)name.length, name.data);
    printf("ptx: %s\n", strstr(text.data, ".target sm_90a") ? ".target sm_90a" : "?");
    printf("ptx: %s\n", strstr(text.data, "mbarrier.try_wait") ? "mbarrier.try_wait" : "?");
    printf("cubin bytes: %ld\n", (long)pmlirResultGetModuleCubin(ptx, 0).length);

    // The launch contract: the producer is threads 0..31, the consumer
    // every other warp: two warps at least, and the barriers' 32 bytes.
    // CHECK: contract: threads 64 smem 32 reqntid 0
    // CHECK-NEXT: one warp: 1 kernel ring: block (32, 1, 1) has 32 threads along x; its roles need at least 64
    // CHECK-NEXT: two warps: 0
    // CHECK-NEXT: 32 x 2: 1
    // CHECK-NEXT: no smem: 1 kernel ring needs at least 32 bytes of dynamic shared memory (its launch contract), got 0
    uint64_t threads = 0, smem = 0;
    unsigned reqntid[3];
    pmlirGetLaunchContract(text, str("ring"), &threads, &smem, reqntid);
    printf("contract: threads %lu smem %lu reqntid %u\n", (unsigned long)threads,
           (unsigned long)smem, reqntid[0]);
    char why[512];
    unsigned one[3] = {32, 1, 1}, two[3] = {64, 1, 1}, tall[3] = {32, 2, 1};
    int refused = pmlirCheckLaunchContract(text, str("ring"), one, 32, why, sizeof(why));
    printf("one warp: %d %s\n", refused, refused ? why : "");
    printf("two warps: %d\n",
           pmlirCheckLaunchContract(text, str("ring"), two, 32, why, sizeof(why)));
    // Two warps of 32 x 2 threads: the roles test tid.x, which stays below
    // 32 (the contract is along x).
    printf("32 x 2: %d\n",
           pmlirCheckLaunchContract(text, str("ring"), tall, 32, why, sizeof(why)));
    refused = pmlirCheckLaunchContract(text, str("ring"), two, 0, why, sizeof(why));
    printf("no smem: %d %s\n", refused, refused ? why : "");

    // A declared block (.reqntid) must be given exactly; another kernel's
    // constant whose name starts with this one's is not this one's.
    // CHECK-NEXT: declared: threads 0 reqntid 128 2 1
    // CHECK-NEXT: declared (64, 4, 1): 1 kernel k requires block (128, 2, 1) (its .reqntid), got (64, 4, 1)
    // CHECK-NEXT: declared (128, 2, 1): 0
    const char *declared =
        ".visible .const .align 8 .u64 __pipeline_mlir_min_block_k2 = 512;\n"
        ".visible .entry k(\n\t.param .u64 k_param_0\n)\n.reqntid 128, 2, 1\n{\n\tret;\n}\n";
    pmlirGetLaunchContract(str(declared), str("k"), &threads, &smem, reqntid);
    printf("declared: threads %lu reqntid %u %u %u\n", (unsigned long)threads,
           reqntid[0], reqntid[1], reqntid[2]);
    unsigned flat[3] = {64, 4, 1}, exact[3] = {128, 2, 1};
    refused = pmlirCheckLaunchContract(str(declared), str("k"), flat, 0, why, sizeof(why));
    printf("declared (64, 4, 1): %d %s\n", refused, refused ? why : "");
    printf("declared (128, 2, 1): %d\n",
           pmlirCheckLaunchContract(str(declared), str("k"), exact, 0, why, sizeof(why)));
  }
  printDiagnostics(ptx);
  pmlirResultDestroy(ptx);

  // A kernel of dynamic shape and a sub-byte scalar: memref<?xf32> is its
  // pointer, offset, size and stride (four parameters), the i2 one widened
  // byte: six parameters in all.
  PmlirResult dynamic =
      pmlirCompileSource(str(kDynamic), str("dynamic.mlir"), sm90, false);
  // CHECK: compile dynamic: 1 parameters 6 u8 1
  long params = 0;
  int u8 = 0;
  if (pmlirResultGetNumModules(dynamic) == 1) {
    MlirStringRef text = pmlirResultGetModulePTX(dynamic, 0);
    for (const char *at = strstr(text.data, ".param "); at;
         at = strstr(at + 1, ".param "))
      ++params;
    u8 = strstr(text.data, ".param .u8 dyn_param_0") != NULL;
  }
  printf("compile dynamic: %d parameters %ld u8 %d\n",
         pmlirResultSucceeded(dynamic), params, u8);
  printDiagnostics(dynamic);
  pmlirResultDestroy(dynamic);

  // hang_keep_waiting without the hang report: the error of every entry
  // point.
  PmlirResult keep = pmlirCompileSource(
      str(kGood), str("good.mlir"), str("chip=sm_90a hang-keep-waiting"), false);
  // CHECK: compile keep-waiting: 0
  // CHECK-NEXT: diag 0 parent -1 error at :0:0: expects hang-keep-waiting with the hang report (hang-report)
  printf("compile keep-waiting: %d\n", pmlirResultSucceeded(keep));
  printDiagnostics(keep);
  pmlirResultDestroy(keep);

  // An option the compile does not have: the parser's message.
  PmlirResult unknown = pmlirCompileSource(str(kGood), str("good.mlir"),
                                           str("chip=sm_90a unrol=1"), false);
  // CHECK: compile unknown: 0
  // CHECK-NEXT: diag 0 parent -1 error at :0:0: {{.*}}unrol
  printf("compile unknown: %d\n", pmlirResultSucceeded(unknown));
  printDiagnostics(unknown);
  pmlirResultDestroy(unknown);

  // A chip the pipelines do not know: an error, no modules.
  PmlirResult bad =
      pmlirCompileSource(str(kGood), str("good.mlir"), str("chip=sm_42"), false);
  // CHECK: compile sm_42: 0 modules 0
  // CHECK: diag 0 parent -1 error at :0:0: {{.*}}sm_42
  printf("compile sm_42: %d modules %ld\n", pmlirResultSucceeded(bad),
         (long)pmlirResultGetNumModules(bad));
  printDiagnostics(bad);
  pmlirResultDestroy(bad);

  // A parse error is a diagnostic with its line.
  // A string need not end in a NUL: a slice of a longer buffer is parsed up
  // to its length only (the parser gets a terminated copy).
  static const char kSlice[] = "module {}}}} trailing bytes outside the slice";
  MlirStringRef slice = {kSlice, strlen("module {}")};
  PmlirResult sliced = pmlirCheckSource(slice, str("slice.mlir"));
  // CHECK: check slice: 1 diagnostics 0
  printf("check slice: %d diagnostics %ld\n", pmlirResultSucceeded(sliced),
         (long)pmlirResultGetNumDiagnostics(sliced));
  pmlirResultDestroy(sliced);

  PmlirResult broken = pmlirCheckSource(str("func.func @f() {\n  %x = \n}\n"),
                                        str("broken.mlir"));
  // CHECK: check broken: 0
  // CHECK: diag 0 parent -1 error at broken.mlir:2:7: expected operation name
  printf("check broken: %d\n", pmlirResultSucceeded(broken));
  printDiagnostics(broken);
  pmlirResultDestroy(broken);
  return 0;
}
