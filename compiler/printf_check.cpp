#include "compiler/printf_check.h"

#include "compiler/builtin_identity.h"
#include "compiler/kernel_metadata.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <cctype>
#include <cstring>
#include <optional>

namespace weft::compiler {
namespace {

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
  auto *data =
      llvm::dyn_cast<llvm::ConstantDataSequential>(global->getInitializer());
  if (!data || !data->isCString())
    return std::nullopt;
  return data->getAsCString().str();
}

// Checks `format` with its `arguments`; returns why it may not go to the C
// library, or "".
std::string checkFormat(const std::string &format,
                        llvm::ArrayRef<llvm::Value *> arguments) {
  size_t next_argument = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%')
      continue;
    if (++i < format.size() && format[i] == '%')
      continue;
    while (i < format.size() && std::strchr("-+ #0", format[i]))
      ++i;
    while (i < format.size() &&
           (std::isdigit(static_cast<unsigned char>(format[i])) ||
            format[i] == '.'))
      ++i;
    if (i < format.size() && format[i] == '*')
      return "a '*' width or precision";
    if (i < format.size() && format[i] == 'v')
      return "a vector conversion (%v...), not supported yet";
    while (i < format.size() && std::strchr("hlLjzt", format[i]))
      ++i;
    if (i == format.size())
      return "a conversion cut short at the end of the format";
    char conversion = format[i];
    if (conversion == 'n')
      return "%n";
    if (!std::strchr("diouxXfFeEgGaAcsp", conversion))
      return std::string("an unknown conversion '%") + conversion + "'";
    if (next_argument == arguments.size())
      return "more conversions than arguments";
    llvm::Value *argument = arguments[next_argument++];
    if (conversion == 's' && !stringLiteral(argument))
      return "a %s argument that is not a string literal";
  }
  return "";
}

} // namespace

llvm::PreservedAnalyses PrintfCheckPass::run(llvm::Module &module,
                                             llvm::ModuleAnalysisManager &) {
  llvm::Function *printf = findBuiltin(module, Builtin::Printf);
  if (!printf)
    return llvm::PreservedAnalyses::all();
  for (llvm::User *user : printf->users()) {
    auto *call = llvm::dyn_cast<llvm::CallBase>(user);
    if (!call || call->getCalledFunction() != printf || call->arg_size() == 0)
      continue;
    std::optional<std::string> format = stringLiteral(call->getArgOperand(0));
    std::vector<llvm::Value *> arguments(call->arg_begin() + 1,
                                         call->arg_end());
    std::string why = format ? checkFormat(*format, arguments)
                             : "a format that is not a string literal";
    if (why.empty())
      continue;
    std::string where = call->getFunction()->getName().str();
    if (where.rfind("__weft_body_", 0) == 0)
      where = "kernel '" + where.substr(12) + "'";
    reportBuildError(
        module, "printf in " + where + " uses " + why +
                    (format ? " (format \"" + *format + "\")" : std::string()));
  }
  return llvm::PreservedAnalyses::all();
}

} // namespace weft::compiler
