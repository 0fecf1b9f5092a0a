//===- pipeline-lsp-server.cpp - MLIR language server for pipeline-mlir ---===//
//
// Upstream's MLIR language server (MlirLspServerMain) with every upstream
// dialect and this project's `pipeline` dialect registered, so that an editor
// shows parse and verifier errors of pipeline programs, hovers over their
// ops and jumps to the definitions of their values; plus the diagnostics of
// the dialect's static checks, pipeline-verify-linearity and
// pipeline-verify-protocol, which are passes and not op verifiers, and so
// are not something the upstream server runs.
//
// The process is a relay in front of the upstream server, which runs as its
// child (this executable with --upstream-server): every message goes
// through unchanged, except the diagnostics the server publishes for a
// document. When those hold no error (the document parses and verifies),
// the relay runs the two checks on its own copy of the document's text
// (kept from didOpen / didChange) and adds their errors, each with its
// range and its notes as related information.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/Analysis/StageLinearity.h"
#include "pipeline/Dialect/Pipeline/IR/InputLimits.h"
#include "pipeline/InitAllPipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;

static void registerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  pmlir::registerAllPipelineDialects(registry);
}

//===----------------------------------------------------------------------===//
// The checks on a document
//===----------------------------------------------------------------------===//

namespace {
/// One diagnostic of a check, with its notes, in LSP terms.
struct Finding {
  int line = 0, character = 0, endCharacter = 0;
  std::string message;
  std::vector<Finding> notes;
};
} // namespace

/// The LSP range of location `loc` in `text`: the token that starts there
/// (an op name, an SSA or block name, a symbol), on its line.
static bool toPosition(Location loc, StringRef text, StringRef name,
                       Finding &f) {
  auto fileLoc = dyn_cast<FileLineColLoc>(loc);
  if (!fileLoc) {
    if (auto named = dyn_cast<NameLoc>(loc))
      return toPosition(named.getChildLoc(), text, name, f);
    if (auto call = dyn_cast<CallSiteLoc>(loc))
      return toPosition(call.getCallee(), text, name, f) ||
             toPosition(call.getCaller(), text, name, f);
    if (auto fused = dyn_cast<FusedLoc>(loc))
      for (Location inner : fused.getLocations())
        if (toPosition(inner, text, name, f))
          return true;
    return false;
  }
  // A location in another file (a loc("...") written in the document):
  // not a place in this one.
  if (fileLoc.getFilename().getValue() != name)
    return false;
  f.line = int(fileLoc.getLine()) - 1;
  f.character = int(fileLoc.getColumn()) - 1;
  // The text of that line.
  StringRef rest = text;
  for (int i = 0; i < f.line && !rest.empty(); ++i)
    rest = rest.split('\n').second;
  StringRef line = rest.split('\n').first;
  size_t at = std::min<size_t>(f.character, line.size());
  size_t end = at;
  if (end < line.size() && StringRef("%^@!#").contains(line[end]))
    ++end;
  while (end < line.size() && (isalnum(static_cast<unsigned char>(line[end])) ||
                               StringRef("_.$-").contains(line[end])))
    ++end;
  f.endCharacter = int(end > at ? end : at + 1);
  return true;
}

/// Parses `text` and, when it parses and verifies, runs the linearity
/// check and, if that holds, the protocol check; their errors.
static std::vector<Finding> checkChunk(StringRef text, StringRef name) {
  DialectRegistry registry;
  registerDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  // The op itself is in the editor: no "see current operation" notes.
  context.printOpOnDiagnostic(false);
  std::vector<Finding> findings;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    // An error at no place of the document (an unknown location) goes to
    // its first character.
    Finding f;
    if (!toPosition(diag.getLocation(), text, name, f)) {
      f.line = f.character = 0;
      f.endCharacter = 1;
    }
    f.message = diag.str();
    for (Diagnostic &note : diag.getNotes()) {
      Finding n;
      if (!toPosition(note.getLocation(), text, name, n))
        continue;
      n.message = note.str();
      f.notes.push_back(std::move(n));
    }
    findings.push_back(std::move(f));
    return success();
  });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name),
                               llvm::SMLoc());
  ParserConfig config(&context, /*verifyAfterParse=*/true);
  // Too deep to parse without overflowing the stack: nothing to add.
  if (pmlir::findExcessTextNesting(text))
    return {};
  // The top-level ops in a module, as pipeline-opt sees them.
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  // Parse and verifier errors are the upstream server's to report.
  if (!module)
    return {};
  findings.clear();
  if (succeeded(pmlir::verifyStageLinearity(*module)))
    (void)pmlir::verifyPipelineProtocol(*module);
  return findings;
}

/// The checks on each part of a document split into independent parts by
/// `// -----` lines (as `-split-input-file` splits a test file), each
/// finding on the document's own line numbers.
static std::vector<Finding> runChecks(StringRef text, StringRef name) {
  std::vector<Finding> all;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  size_t first = 0;
  for (size_t i = 0; i <= lines.size(); ++i) {
    bool split = i < lines.size() && lines[i].rtrim() == "// -----";
    if (!split && i < lines.size())
      continue;
    // Lines first .. i - 1, as their own text.
    const char *begin = lines.empty() ? text.data() : lines[first].data();
    const char *end = i < lines.size() ? lines[i].data() : text.end();
    for (Finding f : checkChunk(StringRef(begin, end - begin), name)) {
      f.line += int(first);
      for (Finding &n : f.notes)
        n.line += int(first);
      all.push_back(std::move(f));
    }
    first = i + 1;
  }
  return all;
}

static llvm::json::Object toRange(int line, int start, int end) {
  return llvm::json::Object{
      {"start", llvm::json::Object{{"line", line}, {"character", start}}},
      {"end", llvm::json::Object{{"line", line}, {"character", end}}}};
}

/// The LSP diagnostic of finding `f` in document `uri`.
static llvm::json::Value toJson(const Finding &f, StringRef uri) {
  llvm::json::Object diag{
      {"range", toRange(f.line, f.character, f.endCharacter)},
      {"severity", 1},
      {"source", "pipeline-mlir"},
      {"category", "Pipeline Check"},
      {"message", f.message}};
  if (!f.notes.empty()) {
    llvm::json::Array related;
    for (const Finding &n : f.notes)
      related.push_back(llvm::json::Object{
          {"location", llvm::json::Object{{"uri", uri},
                                          {"range", toRange(n.line, n.character,
                                                            n.endCharacter)}}},
          {"message", n.message}});
    diag["relatedInformation"] = std::move(related);
  }
  return diag;
}

//===----------------------------------------------------------------------===//
// The relay
//===----------------------------------------------------------------------===//

namespace {
class Relay {
public:
  Relay(llvm::lsp::JSONStreamStyle style, bool pretty)
      : style(style), pretty(pretty) {}
  int run(const std::string &self, const std::vector<std::string> &args);

private:
  void fromClient(std::FILE *toServer);
  void fromServer(std::FILE *fromServerFile);
  void sendToClient(llvm::json::Value message);
  void sendToServer(std::FILE *out, const llvm::json::Value &message);
  void remember(const llvm::json::Object &message);

  llvm::lsp::JSONStreamStyle style;
  bool pretty;
  pid_t server = 0;
  std::mutex mutex; // the documents and the client's output
  llvm::StringMap<std::string> documents;
};
} // namespace

void Relay::sendToClient(llvm::json::Value message) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv(pretty ? "{0:2}\n" : "{0}", message);
  llvm::outs() << "Content-Length: " << text.size() << "\r\n\r\n" << text;
  llvm::outs().flush();
}

void Relay::sendToServer(std::FILE *out, const llvm::json::Value &message) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << message;
  if (style == llvm::lsp::JSONStreamStyle::Delimited)
    std::fprintf(out, "%s\n// -----\n", text.c_str());
  else
    std::fprintf(out, "Content-Length: %zu\r\n\r\n%s", text.size(),
                 text.c_str());
  std::fflush(out);
}

/// Keeps the text of every open document.
void Relay::remember(const llvm::json::Object &message) {
  std::optional<StringRef> method = message.getString("method");
  const llvm::json::Value *params = message.get("params");
  if (!method || !params)
    return;
  llvm::json::Path::Root root;
  std::lock_guard<std::mutex> lock(mutex);
  if (*method == "textDocument/didOpen") {
    const llvm::json::Object *doc =
        params->getAsObject() ? params->getAsObject()->getObject("textDocument")
                              : nullptr;
    if (!doc)
      return;
    std::optional<StringRef> uri = doc->getString("uri");
    std::optional<StringRef> text = doc->getString("text");
    if (uri && text)
      documents[*uri] = text->str();
  } else if (*method == "textDocument/didChange") {
    const llvm::json::Object *obj = params->getAsObject();
    const llvm::json::Object *doc =
        obj ? obj->getObject("textDocument") : nullptr;
    const llvm::json::Array *changes =
        obj ? obj->getArray("contentChanges") : nullptr;
    std::optional<StringRef> uri = doc ? doc->getString("uri") : std::nullopt;
    if (!uri || !changes || !documents.count(*uri))
      return;
    std::vector<llvm::lsp::TextDocumentContentChangeEvent> events;
    for (const llvm::json::Value &change : *changes) {
      llvm::lsp::TextDocumentContentChangeEvent event;
      if (!fromJSON(change, event, root))
        return (void)documents.erase(*uri);
      events.push_back(std::move(event));
    }
    if (failed(llvm::lsp::TextDocumentContentChangeEvent::applyTo(
            events, documents[*uri])))
      documents.erase(*uri);
  } else if (*method == "textDocument/didClose") {
    const llvm::json::Object *obj = params->getAsObject();
    const llvm::json::Object *doc =
        obj ? obj->getObject("textDocument") : nullptr;
    if (std::optional<StringRef> uri =
            doc ? doc->getString("uri") : std::nullopt)
      documents.erase(*uri);
  }
}

/// Reads the JSON messages of `in` in framing `style` until its end, or
/// until `handle` returns false; messages that are no JSON are skipped.
static void readMessages(std::FILE *in, llvm::lsp::JSONStreamStyle style,
                         llvm::function_ref<bool(llvm::json::Value)> handle) {
  llvm::lsp::JSONTransportInputOverFile input(in, style);
  std::string json;
  while (!input.isEndOfInput() && !input.hasError()) {
    if (failed(input.readMessage(json)))
      continue;
    llvm::Expected<llvm::json::Value> message = llvm::json::parse(json);
    if (!message) {
      llvm::consumeError(message.takeError());
      continue;
    }
    if (!handle(std::move(*message)))
      return;
  }
}

void Relay::fromClient(std::FILE *toServer) {
  readMessages(stdin, style, [&](llvm::json::Value message) {
    bool exit = false;
    if (const llvm::json::Object *obj = message.getAsObject()) {
      remember(*obj);
      exit = obj->getString("method") == StringRef("exit");
    }
    sendToServer(toServer, message);
    return !exit && !std::ferror(toServer);
  });
  std::fclose(toServer);
}

void Relay::fromServer(std::FILE *fromServerFile) {
  readMessages(fromServerFile, llvm::lsp::JSONStreamStyle::Standard,
               [&](llvm::json::Value message) {
                 llvm::json::Object *obj = message.getAsObject();
                 if (obj && obj->getString("method") ==
                                StringRef("textDocument/publishDiagnostics")) {
                   llvm::json::Object *params = obj->getObject("params");
                   llvm::json::Array *diags =
                       params ? params->getArray("diagnostics") : nullptr;
                   std::optional<StringRef> uri =
                       params ? params->getString("uri") : std::nullopt;
                   // Only a document the server found no error in.
                   bool clean =
                       diags &&
                       llvm::none_of(*diags, [](const llvm::json::Value &d) {
                         const llvm::json::Object *o = d.getAsObject();
                         return o && o->getInteger("severity") == int64_t(1);
                       });
                   std::string text;
                   bool known = false;
                   if (uri) {
                     std::lock_guard<std::mutex> lock(mutex);
                     auto it = documents.find(*uri);
                     if (it != documents.end()) {
                       text = it->second;
                       known = true;
                     }
                   }
                   if (clean && known)
                     for (const Finding &f : runChecks(text, *uri))
                       diags->push_back(toJson(f, *uri));
                 }
                 std::lock_guard<std::mutex> lock(mutex);
                 sendToClient(std::move(message));
                 return true;
               });
  // The server ended (after an exit, or on its own): so does the relay,
  // with its status, without waiting for the client's next message.
  int status = 0;
  waitpid(server, &status, 0);
  llvm::outs().flush();
  std::_Exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

int Relay::run(const std::string &self, const std::vector<std::string> &args) {
  int toChild[2], fromChild[2];
  if (pipe(toChild) != 0 || pipe(fromChild) != 0) {
    llvm::errs() << "pipeline-lsp-server: error: cannot create pipes: "
                 << std::strerror(errno) << "\n";
    return 1;
  }
  pid_t pid = fork();
  if (pid < 0) {
    llvm::errs() << "pipeline-lsp-server: error: cannot start the server: "
                 << std::strerror(errno) << "\n";
    return 1;
  }
  if (pid == 0) {
    dup2(toChild[0], STDIN_FILENO);
    dup2(fromChild[1], STDOUT_FILENO);
    close(toChild[0]);
    close(toChild[1]);
    close(fromChild[0]);
    close(fromChild[1]);
    std::vector<char *> argv;
    argv.push_back(const_cast<char *>(self.c_str()));
    std::string marker = "--upstream-server";
    argv.push_back(marker.data());
    for (const std::string &a : args)
      argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    execv(self.c_str(), argv.data());
    std::fprintf(stderr, "pipeline-lsp-server: error: cannot run %s: %s\n",
                 self.c_str(), std::strerror(errno));
    _exit(127);
  }
  server = pid;
  close(toChild[0]);
  close(fromChild[1]);
  // A server that ended early: writes to it fail instead of killing the
  // relay, which then ends with the server's status.
  signal(SIGPIPE, SIG_IGN);
  std::FILE *toServer = fdopen(toChild[1], "w");
  std::FILE *fromServerFile = fdopen(fromChild[0], "r");
  std::thread serverReader([&] { fromServer(fromServerFile); });
  fromClient(toServer);
  serverReader.join();
  std::fclose(fromServerFile);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv) {
  // The upstream server itself, run by the relay.
  if (argc > 1 && StringRef(argv[1]) == "--upstream-server") {
    DialectRegistry registry;
    registerDialects(registry);
    std::vector<char *> rest{argv[0]};
    rest.insert(rest.end(), argv + 2, argv + argc);
    return failed(MlirLspServerMain(int(rest.size()), rest.data(), registry))
               ? 1
               : 0;
  }
  // The relay: the same options go to the server; the relay reads the
  // client's framing and prints as the server would.
  auto style = llvm::lsp::JSONStreamStyle::Standard;
  bool pretty = false;
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    StringRef a = argv[i];
    if (a == "-lit-test" || a == "--lit-test") {
      style = llvm::lsp::JSONStreamStyle::Delimited;
      pretty = true;
    } else if (a == "-pretty" || a == "--pretty") {
      pretty = true;
    } else if (a.ends_with("input-style=delimited") ||
               ((a == "-input-style" || a == "--input-style") && i + 1 < argc &&
                StringRef(argv[i + 1]) == "delimited")) {
      style = llvm::lsp::JSONStreamStyle::Delimited;
    }
    if (a == "-h" || a == "--help" || a == "-help" || a == "--version") {
      DialectRegistry registry;
      return failed(MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
    }
    args.push_back(a.str());
  }
  std::string self =
      llvm::sys::fs::getMainExecutable(argv[0], (void *)&registerDialects);
  Relay relay(style, pretty);
  return relay.run(self, args);
}
