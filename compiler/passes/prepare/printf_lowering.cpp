#include "compiler/passes/prepare/printf_lowering.h"

#include "compiler/analysis/builtin_identity.h"
#include "compiler/analysis/kernel_metadata.h"
#include "device/printf_abi.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <optional>
#include <string>
#include <vector>

namespace weft::compiler {
namespace {

using printf_format::Conversion;

// The value stored once into the private variable `load` reads, when the
// front end kept a local (a string kept in a variable before O3 runs).
llvm::Value *storedValue(llvm::LoadInst &load) {
  auto *slot = llvm::dyn_cast<llvm::AllocaInst>(
      llvm::getUnderlyingObject(load.getPointerOperand()));
  if (!slot)
    return nullptr;
  llvm::Value *stored = nullptr;
  for (llvm::User *user : slot->users()) {
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
      if (store->getPointerOperand() != slot || stored)
        return nullptr;
      stored = store->getValueOperand();
    } else if (!llvm::isa<llvm::LoadInst>(user) &&
               !llvm::isa<llvm::IntrinsicInst>(user)) {
      return nullptr; // escapes: any value may be there
    }
  }
  return stored;
}

// The text of the string literal `value` points to the start of.
std::optional<std::string> stringLiteral(llvm::Value *value, int depth = 0) {
  if (depth > 4)
    return std::nullopt;
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(value))
    if (llvm::Value *stored = storedValue(*load))
      return stringLiteral(stored, depth + 1);
  auto *global = llvm::dyn_cast<llvm::GlobalVariable>(
      value->stripPointerCastsAndAliases());
  if (!global || !global->isConstant() || !global->hasDefinitiveInitializer())
    return std::nullopt;
  const llvm::Constant *initializer = global->getInitializer();
  auto *array = llvm::dyn_cast<llvm::ArrayType>(initializer->getType());
  if (!array || !array->getElementType()->isIntegerTy(8))
    return std::nullopt;
  if (llvm::isa<llvm::ConstantAggregateZero>(initializer))
    return std::string(); // ""
  // The text up to the first NUL ("a\0b" prints as "a"), which must lie
  // inside the array.
  auto *data = llvm::dyn_cast<llvm::ConstantDataSequential>(initializer);
  if (!data || !data->isString())
    return std::nullopt;
  llvm::StringRef text = data->getAsString();
  size_t end = text.find('\0');
  if (end == llvm::StringRef::npos)
    return std::nullopt;
  return text.substr(0, end).str();
}

// One argument the record keeps: the value as passed, or (for a vector
// passed in memory) the pointer to its bytes.
struct StoredArgument {
  llvm::Value *value;
  uint64_t bytes;
  bool in_memory;
};

// The bytes of argument `index` of `call` as the callee receives them.
StoredArgument argumentOf(llvm::CallBase &call, unsigned index,
                          const llvm::DataLayout &layout) {
  llvm::Value *value = call.getArgOperand(index);
  if (call.paramHasAttr(index, llvm::Attribute::ByVal))
    return {
        value,
        layout.getTypeStoreSize(call.getParamByValType(index)).getFixedValue(),
        true};
  return {value, layout.getTypeStoreSize(value->getType()).getFixedValue(),
          false};
}

// Checks the call's arguments against the conversions of `format`; returns
// why it cannot be printed, or "", and the arguments the record keeps.
std::string checkCall(llvm::CallBase &call, const std::string &format,
                      std::vector<StoredArgument> &stored) {
  const llvm::DataLayout &layout = call.getModule()->getDataLayout();
  unsigned next = 1; // operand 0 is the format
  auto take = [&](StoredArgument &argument) {
    if (next >= call.arg_size())
      return false;
    argument = argumentOf(call, next++, layout);
    stored.push_back(argument);
    return true;
  };
  for (size_t i = format.find('%'); i != std::string::npos;
       i = format.find('%', i)) {
    Conversion c = printf_format::parseConversion(format, i);
    if (c.error)
      return std::string(c.error) + " in \"" +
             format.substr(c.begin, c.end - c.begin) + "\"";
    i = c.end;
    if (c.conversion == '%')
      continue;
    std::string spec = "\"" + format.substr(c.begin, c.end - c.begin) + "\"";
    StoredArgument argument;
    for (int star = c.width_argument + c.precision_argument; star > 0; --star) {
      if (!take(argument))
        return "more conversions than arguments (at " + spec + ")";
      if (argument.in_memory || !argument.value->getType()->isIntegerTy())
        return "a '*' whose argument is not an int (at " + spec + ")";
    }
    if (!take(argument))
      return "more conversions than arguments (at " + spec + ")";
    llvm::Type *type = argument.value->getType();
    std::string position = "argument " + std::to_string(next - 1);
    if (c.conversion == 's') {
      if (argument.in_memory || !stringLiteral(argument.value))
        return position + " for " + spec + ", which is not a string literal";
      continue;
    }
    if (c.conversion == 'p') {
      if (argument.in_memory || argument.bytes != 8)
        return position + " for " + spec + ", which is not a pointer";
      continue;
    }
    if (c.lanes) {
      if (argument.bytes < c.vectorBytes() ||
          argument.bytes > c.paddedVectorBytes())
        return position + " for " + spec + ", which takes a vector of " +
               std::to_string(c.vectorBytes()) + " bytes, has " +
               std::to_string(argument.bytes) + " bytes";
      continue;
    }
    if (argument.in_memory || type->isVectorTy())
      return position + " for " + spec +
             ", a vector: a vector needs a vector specifier (%v4d, %v2hlf, "
             "...)";
    if (c.isFloat() && !type->isFloatingPointTy())
      return position + " for " + spec + ", which is not floating point";
    if (c.isInteger() && !type->isIntegerTy())
      return position + " for " + spec + ", which is not an integer";
  }
  return "";
}

uint64_t roundUp8(uint64_t bytes) { return (bytes + 7) / 8 * 8; }

// Replaces `call` by the reservation and stores of its record; printf's
// result becomes 0, or -1 when the record did not fit.
void lowerCall(llvm::CallBase &call,
               const std::vector<StoredArgument> &arguments) {
  llvm::Module &module = *call.getModule();
  llvm::IRBuilder<> b(&call);
  uint64_t bytes = sizeof(PrintfRecordHeader);
  for (const StoredArgument &a : arguments)
    bytes += 8 + roundUp8(a.bytes);
  llvm::FunctionCallee buffer_query =
      module.getOrInsertFunction(symbolOf(Builtin::PrintfBuffer), b.getPtrTy());
  llvm::FunctionCallee reserve =
      module.getOrInsertFunction(symbolOf(Builtin::PrintfReserve), b.getPtrTy(),
                                 b.getPtrTy(), b.getInt64Ty());
  llvm::Value *buffer = b.CreateCall(buffer_query);
  llvm::Value *record = b.CreateCall(reserve, {buffer, b.getInt64(bytes)});
  llvm::BasicBlock *head = call.getParent();
  llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(
      b.CreateIsNotNull(record), call.getIterator(), /*Unreachable=*/false);
  b.SetInsertPoint(then);
  auto at = [&](uint64_t offset) {
    return offset ? b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), record, offset)
                  : record;
  };
  b.CreateAlignedStore(b.getInt32(static_cast<uint32_t>(bytes)), at(0),
                       llvm::Align(8));
  b.CreateAlignedStore(b.getInt32(static_cast<uint32_t>(arguments.size())),
                       at(4), llvm::Align(4));
  b.CreateAlignedStore(call.getArgOperand(0), at(8), llvm::Align(8));
  uint64_t offset = sizeof(PrintfRecordHeader);
  for (const StoredArgument &a : arguments) {
    b.CreateAlignedStore(b.getInt64(a.bytes), at(offset), llvm::Align(8));
    offset += 8;
    if (a.in_memory)
      b.CreateMemCpy(at(offset), llvm::Align(8), a.value, llvm::MaybeAlign(),
                     a.bytes);
    else
      b.CreateAlignedStore(a.value, at(offset), llvm::Align(8));
    offset += roundUp8(a.bytes);
  }
  b.SetInsertPoint(&call);
  llvm::PHINode *result = b.CreatePHI(b.getInt32Ty(), 2);
  result->addIncoming(b.getInt32(0), then->getParent());
  result->addIncoming(b.getInt32(-1), head);
  call.replaceAllUsesWith(result);
  call.eraseFromParent();
}

std::string describeCaller(const llvm::CallBase &call) {
  std::string name = call.getFunction()->getName().str();
  if (call.getFunction()->getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
    return "kernel '" + name + "'";
  return "function '" + name + "'";
}

} // namespace

llvm::PreservedAnalyses PrintfLoweringPass::run(llvm::Module &module,
                                                llvm::ModuleAnalysisManager &) {
  llvm::Function *printf = findBuiltin(module, Builtin::Printf);
  if (!printf)
    return llvm::PreservedAnalyses::all();
  std::vector<llvm::CallBase *> calls;
  for (llvm::User *user : printf->users())
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
      if (call->getCalledFunction() == printf && call->arg_size() > 0)
        calls.push_back(call);
  for (llvm::CallBase *call : calls) {
    std::optional<std::string> format = stringLiteral(call->getArgOperand(0));
    std::vector<StoredArgument> arguments;
    std::string why = format ? checkCall(*call, *format, arguments)
                             : "a format that is not a string literal";
    if (!why.empty()) {
      reportBuildError(
          module,
          "printf in " + describeCaller(*call) + ": " + why +
              (format ? " (format \"" + *format + "\")" : std::string()));
      continue;
    }
    lowerCall(*call, arguments);
  }
  return llvm::PreservedAnalyses::none();
}

} // namespace weft::compiler
