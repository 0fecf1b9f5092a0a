//===- TestProtocolEffects.cpp - print the ops' protocol effects ----------===//
//
// pipeline-test-protocol-effects: a remark at every pipeline op with the
// protocol effects, chip feature and structural traits it declares in ODS
// (ProtocolOpInterface), so that a lit test holds the table.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace pmlir;

namespace {
const char *toString(ProtocolRole role) {
  const char *names[] = {"none", "producer", "consumer", "of-stage"};
  return names[unsigned(role)];
}
const char *toString(ProtocolStep step) {
  const char *names[] = {"none",       "reads",  "at-acquire",
                         "at-release", "always", "drain"};
  return names[unsigned(step)];
}
const char *toString(ProtocolWait wait) {
  const char *names[] = {"none", "blocks", "tries"};
  return names[unsigned(wait)];
}
const char *toString(ProtocolSignal signal) {
  const char *names[] = {"none",   "arrive",     "expect-tx",   "release",
                         "commit", "mma-commit", "region-exit", "address"};
  return names[unsigned(signal)];
}
const char *toString(ChipFeature feature) {
  const char *names[] = {"none", "mbarrier-tx", "tcgen05",
                         "cluster-launch-control"};
  return names[unsigned(feature)];
}

struct TestProtocolEffectsPass
    : PassWrapper<TestProtocolEffectsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestProtocolEffectsPass)

  StringRef getArgument() const override {
    return "pipeline-test-protocol-effects";
  }
  StringRef getDescription() const override {
    return "Remark the protocol effects each pipeline op declares";
  }
  void runOnOperation() override {
    getOperation()->walk([](ProtocolOpInterface op) {
      ProtocolEffects e = op.getProtocolEffects();
      InFlightDiagnostic remark = op->emitRemark();
      remark << "role " << toString(e.role) << ", step " << toString(e.step)
             << ", wait " << toString(e.wait) << ", signal "
             << toString(e.signal) << ", chip "
             << toString(op.getChipFeature());
      if (op->hasTrait<AcquiresStage>())
        remark << ", acquires a stage";
      if (op->hasTrait<ScopedStage>())
        remark << ", scoped stage";
      if (op->hasTrait<PipelineView>())
        remark << ", view";
    });
  }
};
} // namespace

namespace pmlir::test {
void registerTestProtocolEffectsPass() {
  PassRegistration<TestProtocolEffectsPass>();
}
} // namespace pmlir::test
