//===- PipelineInit.cpp - collective initialization check -----------------===//

#include "pipeline/Dialect/Pipeline/Analysis/PipelineInit.h"
#include "ProtocolUtils.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace pmlir;

/// Collects the ops that use pipeline `value`, looking through the views
/// that share its barriers (input_tile_pipeline, role).
static void collectUsers(Value value, SmallVectorImpl<Operation *> &users) {
  for (Operation *user : value.getUsers()) {
    users.push_back(user);
    if (user->hasTrait<PipelineView>())
      collectUsers(user->getResult(0), users);
  }
}

/// Describes where a non-entry-block op sits, for the diagnostic.
static std::string describePlace(Operation *op, Region &body) {
  Operation *parent = op->getParentOp();
  if (op->getParentRegion() == &body)
    return "in a block other than the kernel's entry block";
  return ("inside '" + parent->getName().getStringRef() + "'").str();
}

/// The first call of `func` (recursively, of its callers) that not every
/// thread of the kernel executes: a call outside its function's entry
/// block. A kernel (gpu.func kernel, a gpu.launch body) or a function no
/// one in its symbol table calls is an entry point: every thread runs it.
static Operation *findDivergentCall(FunctionOpInterface func,
                                    SmallPtrSetImpl<Operation *> &visited) {
  if (!visited.insert(func).second)
    return nullptr;
  if (auto gpuFunc = dyn_cast<gpu::GPUFuncOp>(func.getOperation());
      gpuFunc && gpuFunc.isKernel())
    return nullptr;
  Operation *parent = func->getParentOp();
  Operation *table =
      parent ? SymbolTable::getNearestSymbolTable(parent) : nullptr;
  if (!table)
    return nullptr;
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func.getOperation(), table);
  if (!uses)
    return nullptr;
  for (const SymbolTable::SymbolUse &use : *uses) {
    Operation *call = use.getUser();
    if (!isa<CallOpInterface>(call))
      continue;
    auto caller = call->getParentOfType<FunctionOpInterface>();
    Region *callerBody = protocol::kernelBody(call);
    if (!callerBody || callerBody->empty())
      continue;
    if (call->getBlock() != &callerBody->front())
      return call;
    if (caller && !isa<gpu::LaunchOp>(callerBody->getParentOp()))
      if (Operation *outer = findDivergentCall(caller, visited))
        return outer;
  }
  return nullptr;
}

static LogicalResult verifyOne(CreateOp create) {
  Region *bodyPtr = protocol::kernelBody(create);
  if (!bodyPtr || bodyPtr->empty())
    return success();
  Region &body = *bodyPtr;
  SmallVector<Operation *> users;
  collectUsers(create.getResult(), users);
  // A pipeline used by another kernel (a host pipeline captured by a
  // gpu.launch) is the lowering's to report.
  if (llvm::any_of(users, [&](Operation *user) {
        return protocol::kernelBody(user) != bodyPtr;
      }))
    return success();

  // The inits in program order where they share a block (use lists are in
  // no particular order).
  SmallVector<InitMbarsOp> inits;
  for (Operation *user : users)
    if (auto init = dyn_cast<InitMbarsOp>(user))
      inits.push_back(init);
  llvm::stable_sort(inits, [](InitMbarsOp a, InitMbarsOp b) {
    return a->getBlock() == b->getBlock() && a->isBeforeInBlock(b);
  });
  InitMbarsOp init;
  for (InitMbarsOp other : inits) {
    if (!init) {
      init = other;
      continue;
    }
    auto diag = create.emitOpError()
                << "expects one pipeline.init_mbars per pipeline, got a "
                   "second one: initializing barriers that are in use "
                   "loses their arrivals";
    diag.attachNote(init.getLoc()) << "first init here";
    diag.attachNote(other.getLoc()) << "second init here";
    return failure();
  }
  if (!init)
    return create.emitOpError()
           << "expects a pipeline.init_mbars on this pipeline (or on a tile "
              "pipeline built from it), executed by every thread before any "
              "other use: without it no barrier is initialized and the "
              "first wait hangs";

  if (init->getBlock() != &body.front()) {
    auto diag = create.emitOpError()
                << "expects its pipeline.init_mbars to be executed by every "
                   "thread, in the kernel's entry block, got it "
                << describePlace(init, body)
                << ": the threads that skip it never reach the barrier that "
                   "ends it, and may use barriers before they are "
                   "initialized";
    diag.attachNote(init.getLoc()) << "init here";
    return failure();
  }

  // The entry block of a device function runs in every thread only if
  // every call of the function does.
  if (auto func = dyn_cast<FunctionOpInterface>(body.getParentOp())) {
    SmallPtrSet<Operation *, 4> visited;
    if (Operation *call = findDivergentCall(func, visited)) {
      auto callee = call->getParentOfType<FunctionOpInterface>();
      auto diag =
          create.emitOpError()
          << "expects its pipeline.init_mbars to be executed by every "
             "thread, got it in the entry block of function @"
          << SymbolTable::getSymbolName(func).getValue() << ", which is called "
          << describePlace(call, *protocol::kernelBody(call))
          << (callee ? " of @" +
                           SymbolTable::getSymbolName(callee).getValue().str()
                     : std::string())
          << ": the threads that skip the call never reach the "
             "barrier that ends the init, and may use barriers "
             "before they are initialized";
      diag.attachNote(init.getLoc()) << "init here";
      diag.attachNote(call->getLoc()) << "call here";
      return failure();
    }
  }

  // Every other use must come after the init in the entry block (a use in
  // a nested region or a later block comes after its ancestor there).
  for (Operation *user : users) {
    if (user == init.getOperation() || user->hasTrait<PipelineView>())
      continue;
    Operation *ancestor = body.front().findAncestorOpInBlock(*user);
    if (!ancestor || init->isBeforeInBlock(ancestor))
      continue;
    auto diag = create.emitOpError()
                << "expects pipeline.init_mbars before every other use of "
                   "the pipeline, got '"
                << user->getName()
                << "' before it: it would use barriers "
                   "that are not initialized yet";
    diag.attachNote(user->getLoc()) << "use here";
    diag.attachNote(init.getLoc()) << "init here";
    return failure();
  }
  return success();
}

/// Pipelines whose barriers (`create in %buf[%off]`, 8 bytes per barrier)
/// overlap in the same shared memory: the second init rewrites barriers the
/// first pipeline uses. Every gpu.dynamic_shared_memory of a kernel is the
/// same memory; other buffers are compared by value. Offsets that are not
/// constants are not compared.
static LogicalResult verifyDisjointStorage(Operation *root) {
  struct Placed {
    CreateOp create;
    uint64_t begin, end;
  };
  // Keyed by (kernel body, buffer): the buffer is null for the dynamic
  // shared memory.
  DenseMap<std::pair<Region *, Value>, SmallVector<Placed>> placed;
  bool failed = false;
  root->walk([&](CreateOp create) {
    if (!create.getStorage())
      return;
    std::optional<int64_t> offset = getConstantIntValue(create.getOffset());
    Region *body = protocol::kernelBody(create);
    if (!offset || *offset < 0 || !body)
      return;
    Value buffer = create.getStorage();
    if (buffer.getDefiningOp<gpu::DynamicSharedMemoryOp>())
      buffer = Value();
    Placed here{create, uint64_t(*offset),
                uint64_t(*offset) +
                    create.getResult().getType().getSmemBytes()};
    SmallVector<Placed> &others = placed[{body, buffer}];
    for (Placed &other : others) {
      if (here.begin >= other.end || other.begin >= here.end)
        continue;
      auto diag = create.emitOpError()
                  << "expects its barriers (bytes " << here.begin << " to "
                  << here.end
                  << ") apart from those of another pipeline in the same "
                     "shared memory (bytes "
                  << other.begin << " to " << other.end
                  << "): its init would rewrite barriers the other pipeline "
                     "uses; place it at offset "
                  << other.end << " or later (pipeline.smem_bytes gives the "
                  << "other's size)";
      diag.attachNote(other.create.getLoc()) << "the other pipeline";
      failed = true;
      return;
    }
    others.push_back(here);
  });
  return failure(failed);
}

LogicalResult pmlir::verifyPipelineInit(Operation *root) {
  bool failed = false;
  root->walk([&](CreateOp create) {
    if (mlir::failed(verifyOne(create)))
      failed = true;
  });
  if (mlir::failed(verifyDisjointStorage(root)))
    failed = true;
  return failure(failed);
}
