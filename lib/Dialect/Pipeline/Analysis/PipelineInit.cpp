//===- PipelineInit.cpp - collective initialization check -----------------===//

#include "pipeline/Dialect/Pipeline/Analysis/PipelineInit.h"
#include "ProtocolUtils.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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

LogicalResult pmlir::verifyPipelineInit(Operation *root) {
  bool failed = false;
  root->walk([&](CreateOp create) {
    if (mlir::failed(verifyOne(create)))
      failed = true;
  });
  return failure(failed);
}
