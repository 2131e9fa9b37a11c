#include "compiler/pipeline/pipeline.h"

#include "compiler/analysis/execution_plan.h"
#include "compiler/analysis/kernel_metadata.h"
#include "compiler/passes/finish/internalize_entries.h"
#include "compiler/passes/finish/memory_scopes.h"
#include "compiler/passes/kernels/async_copy_followers.h"
#include "compiler/passes/kernels/async_copy_read_through.h"
#include "compiler/passes/kernels/barrier_regions.h"
#include "compiler/passes/kernels/demanded_id_bits.h"
#include "compiler/passes/kernels/element_wise_vectors.h"
#include "compiler/passes/kernels/fiber_barriers.h"
#include "compiler/passes/kernels/group_entries.h"
#include "compiler/passes/kernels/image_format_variants.h"
#include "compiler/passes/kernels/kernel_bodies.h"
#include "compiler/passes/kernels/memory_checks.h"
#include "compiler/passes/kernels/pipe_leaders.h"
#include "compiler/passes/kernels/lockstep_rounds.h"
#include "compiler/passes/kernels/redundant_barriers.h"
#include "compiler/passes/kernels/unit_stride_variants.h"
#include "compiler/passes/kernels/work_group_pipes.h"
#include "compiler/passes/kernels/work_item_vectorizer.h"
#include "compiler/passes/optimizer/constant_trip_counts.h"
#include "compiler/passes/optimizer/half_fma_in_float.h"
#include "compiler/passes/optimizer/usual_case_versions.h"
#include "compiler/passes/optimizer/parallel_work_item_loops.h"
#include "compiler/passes/optimizer/pipe_shape_loads.h"
#include "compiler/passes/optimizer/plain_local_atomics.h"
#include "compiler/passes/optimizer/safe_division.h"
#include "compiler/passes/optimizer/split_work_item_ranges.h"
#include "compiler/passes/optimizer/vnni_dot_products.h"
#include "compiler/passes/optimizer/whole_runs_in_loops.h"
#include "compiler/passes/prepare/inline_into_kernels.h"
#include "compiler/passes/prepare/printf_lowering.h"
#include "compiler/passes/prepare/private_volatiles.h"
#include "compiler/passes/prepare/program_constructors.h"
#include "compiler/passes/prepare/wide_indices.h"
#include "compiler/support/analysis_managers.h"

#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>

namespace weft::compiler {
namespace {

// Collects the errors passes report (reportBuildError) for the build log.
class ErrorCollector : public llvm::DiagnosticHandler {
public:
  explicit ErrorCollector(std::string &errors) : errors_(errors) {}
  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    if (info.getSeverity() != llvm::DS_Error)
      return true;
    llvm::raw_string_ostream out(errors_);
    llvm::DiagnosticPrinterRawOStream printer(out);
    out << "error: ";
    info.print(printer);
    out << "\n";
    return true;
  }

private:
  std::string &errors_;
};

} // namespace

void addPassStage(llvm::ModulePassManager &passes, PassStage stage) {
#define WEFT_MODULE_PASS(STAGE, NAME, CREATE)                                  \
  if (stage == PassStage::STAGE)                                               \
    passes.addPass(CREATE);
#include "compiler/pipeline/passes.def"
}

bool runPassStage(llvm::Module &module, PassStage stage, std::string &errors) {
  llvm::LLVMContext &context = module.getContext();
  std::string reported;
  context.setDiagnosticHandler(std::make_unique<ErrorCollector>(reported));
  {
    llvm::PassBuilder builder;
    AnalysisManagers analyses(builder);
    llvm::ModulePassManager passes;
    addPassStage(passes, stage);
    passes.run(module, analyses.modules);
  }
  context.setDiagnosticHandler(std::make_unique<llvm::DiagnosticHandler>());
  errors += reported;
  return reported.empty();
}

namespace {

enum class ExtensionPoint { Peephole, VectorizerStart, OptimizerLast };

template <typename Pass>
void addAt(llvm::PassBuilder &builder, ExtensionPoint point, Pass pass) {
  if (point == ExtensionPoint::Peephole)
    builder.registerPeepholeEPCallback(
        [pass](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
          passes.addPass(Pass(pass));
        });
  else if (point == ExtensionPoint::VectorizerStart)
    builder.registerVectorizerStartEPCallback(
        [pass](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
          passes.addPass(Pass(pass));
        });
  else
    builder.registerOptimizerLastEPCallback(
        [pass](llvm::ModulePassManager &passes, llvm::OptimizationLevel) {
          passes.addPass(llvm::createModuleToFunctionPassAdaptor(Pass(pass)));
        });
}

} // namespace

void registerOptimizerPasses(llvm::PassBuilder &builder) {
#define WEFT_FUNCTION_PASS(EP, NAME, CREATE)                                   \
  addAt(builder, ExtensionPoint::EP, CREATE);
#define WEFT_LOOP_PASS(NAME, CREATE)                                           \
  builder.registerLateLoopOptimizationsEPCallback(                             \
      [](llvm::LoopPassManager &passes, llvm::OptimizationLevel) {             \
        passes.addPass(CREATE);                                                \
      });
#include "compiler/pipeline/passes.def"
}

void registerWeftPasses(llvm::PassBuilder &builder) {
  builder.registerPipelineParsingCallback(
      [](llvm::StringRef name, llvm::ModulePassManager &passes,
         llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (name == "weft-kernel-pipeline") {
          addPassStage(passes, PassStage::Kernels);
          return true;
        }
#define WEFT_MODULE_PASS(STAGE, NAME, CREATE)                                  \
  if (name == NAME) {                                                          \
    passes.addPass(CREATE);                                                    \
    return true;                                                               \
  }
#include "compiler/pipeline/passes.def"
        return false;
      });
  builder.registerPipelineParsingCallback(
      [](llvm::StringRef name, llvm::FunctionPassManager &passes,
         llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
#define WEFT_FUNCTION_PASS(EP, NAME, CREATE)                                   \
  if (name == NAME) {                                                          \
    passes.addPass(CREATE);                                                    \
    return true;                                                               \
  }
#include "compiler/pipeline/passes.def"
        return false;
      });
  builder.registerPipelineParsingCallback(
      [](llvm::StringRef name, llvm::LoopPassManager &passes,
         llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
#define WEFT_LOOP_PASS(NAME, CREATE)                                           \
  if (name == NAME) {                                                          \
    passes.addPass(CREATE);                                                    \
    return true;                                                               \
  }
#include "compiler/pipeline/passes.def"
        return false;
      });
}

} // namespace weft::compiler
