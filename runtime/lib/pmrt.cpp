//===- pmrt.cpp - pipeline-mlir host runtime ------------------------------===//

#include "pipeline-runtime/pmrt.h"
#include "pipeline-c/HangRecord.h"
#include "pipeline-c/KernelLayout.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace pmrt {

namespace {
struct State {
  bool initialized = false;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  int smCount = 0;
  int ccMajor = 0;
  int ccMinor = 0;
  std::string name;
  // The hang report of the last module loaded with one (see pmrt.h).
  volatile uint32_t *hangRecord = nullptr;
  std::string hangSites;
};
State &state() {
  static State s;
  return s;
}
} // namespace

std::string driverErrorText(CUresult result) {
  // The stub library of the toolkit answers every call, cuGetErrorName
  // included, with CUDA_ERROR_STUB_LIBRARY: name the common results here.
  switch (result) {
  case CUDA_ERROR_STUB_LIBRARY:
    return "CUDA_ERROR_STUB_LIBRARY: the program runs on the CUDA toolkit's "
           "stub libcuda (lib64/stubs), not on an NVIDIA driver's; install "
           "the driver, or take the stubs directory off LD_LIBRARY_PATH";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE: the driver sees no CUDA device (check "
           "nvidia-smi and CUDA_VISIBLE_DEVICES)";
  case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
    return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: libcuda and the NVIDIA kernel "
           "driver are of different versions";
  default:
    break;
  }
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = "unknown CUDA error";
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = "no description";
  return std::string(name) + ": " + text;
}

void reportDriverError(CUresult result, const char *call, const char *file,
                       int line) {
  std::fprintf(
      stdout, "ERROR: CUDA driver call failed: %s -> %s (%d) [%s:%d]\n", call,
      driverErrorText(result).c_str(), static_cast<int>(result), file, line);
  std::fflush(stdout);
  std::_Exit(2);
}

void init() {
  State &s = state();
  if (s.initialized)
    return;
  PMRT_CHECK(cuInit(0));
  int count = 0;
  PMRT_CHECK(cuDeviceGetCount(&count));
  int ordinal = 0;
  if (const char *env = std::getenv("PMRT_DEVICE"))
    ordinal = std::atoi(env);
  if (ordinal < 0 || ordinal >= count) {
    std::printf("ERROR: device %d requested, %d present\n", ordinal, count);
    std::fflush(stdout);
    std::_Exit(2);
  }
  PMRT_CHECK(cuDeviceGet(&s.device, ordinal));
  PMRT_CHECK(cuDevicePrimaryCtxRetain(&s.context, s.device));
  PMRT_CHECK(cuCtxSetCurrent(s.context));
  PMRT_CHECK(cuStreamCreate(&s.stream, CU_STREAM_NON_BLOCKING));
  PMRT_CHECK(cuDeviceGetAttribute(
      &s.smCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, s.device));
  PMRT_CHECK(cuDeviceGetAttribute(
      &s.ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, s.device));
  PMRT_CHECK(cuDeviceGetAttribute(
      &s.ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, s.device));
  char name[256] = {0};
  PMRT_CHECK(cuDeviceGetName(name, sizeof(name) - 1, s.device));
  s.name = name;
  int driver = 0;
  PMRT_CHECK(cuDriverGetVersion(&driver));
  std::printf("device: %s, sm_%d%d, %d SMs, CUDA driver API %d.%d\n",
              s.name.c_str(), s.ccMajor, s.ccMinor, s.smCount, driver / 1000,
              (driver % 1000) / 10);
  std::fflush(stdout);
  s.initialized = true;
}

int smCount() { return state().smCount; }
int computeCapabilityMajor() { return state().ccMajor; }
int computeCapabilityMinor() { return state().ccMinor; }
std::string deviceName() { return state().name; }

namespace {
/// The layout records (their symbols) in the image of each module that
/// loadModule loaded: getKernel looks up only those, since the lookup of a
/// missing global is a failing driver call, which memcheck reports.
std::mutex recordsMutex;
std::map<CUmodule, std::set<std::string>> &layoutRecords() {
  static std::map<CUmodule, std::set<std::string>> table;
  return table;
}

void noteLayoutRecords(CUmodule module, const std::vector<char> &image) {
  static const char kPrefix[] = PMLIR_KERNEL_LAYOUT_PREFIX;
  const size_t prefix = sizeof(kPrefix) - 1;
  std::set<std::string> symbols;
  auto isIdentifier = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
  };
  for (auto at = image.begin();
       (at = std::search(at, image.end(), kPrefix, kPrefix + prefix)) !=
       image.end();
       at += prefix)
    symbols.insert(std::string(
        at, std::find_if_not(at + prefix, image.end(), isIdentifier)));
  std::lock_guard<std::mutex> lock(recordsMutex);
  layoutRecords()[module] = std::move(symbols);
}

/// Whether `module` may hold the global `symbol`: it does per its image, or
/// it was not loaded by loadModule (unknown: looked up).
bool mayHaveLayoutRecord(CUmodule module, const std::string &symbol) {
  std::lock_guard<std::mutex> lock(recordsMutex);
  auto it = layoutRecords().find(module);
  return it == layoutRecords().end() || it->second.count(symbol);
}
} // namespace

CUmodule loadModule(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::printf("ERROR: cannot open kernel module '%s'\n", path.c_str());
    std::fflush(stdout);
    std::_Exit(2);
  }
  std::vector<char> image((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  image.push_back('\0'); // PTX text must be NUL-terminated; harmless for ELF.
  CUmodule module = nullptr;
  CUresult r = cuModuleLoadData(&module, image.data());
  if (r != CUDA_SUCCESS) {
    std::printf("ERROR: loading '%s' failed\n", path.c_str());
    reportDriverError(r, "cuModuleLoadData", __FILE__, __LINE__);
  }
  noteLayoutRecords(module, image);
  // Only modules compiled with the hang report name its globals: looking
  // them up in the others would be a failing driver call, which
  // compute-sanitizer's memcheck reports as an error.
  static const char kHangBuffer[] = PMLIR_HANG_BUFFER_SYMBOL;
  if (std::search(image.begin(), image.end(), kHangBuffer,
                  kHangBuffer + sizeof(kHangBuffer) - 1) != image.end())
    installHangReport(module);
  return module;
}

void installHangReport(CUmodule module) {
  CUdeviceptr bufferVar = 0, sitesVar = 0;
  size_t bufferBytes = 0, sitesBytes = 0;
  if (cuModuleGetGlobal(&bufferVar, &bufferBytes, module,
                        PMLIR_HANG_BUFFER_SYMBOL) != CUDA_SUCCESS ||
      cuModuleGetGlobal(&sitesVar, &sitesBytes, module,
                        PMLIR_HANG_SITES_SYMBOL) != CUDA_SUCCESS)
    return; // compiled without the hang report
  State &s = state();
  if (!s.hangRecord) {
    // Mapped pinned memory: the kernel writes it, the host reads it while
    // the kernel still runs.
    void *host = nullptr;
    PMRT_CHECK(
        cuMemHostAlloc(&host, PMLIR_HANG_RECORD_BYTES,
                       CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    std::memset(host, 0, PMLIR_HANG_RECORD_BYTES);
    s.hangRecord = static_cast<volatile uint32_t *>(host);
  }
  CUdeviceptr device = 0;
  PMRT_CHECK(cuMemHostGetDevicePointer(
      &device, const_cast<uint32_t *>(s.hangRecord), 0));
  uint64_t address = device;
  PMRT_CHECK(cuMemcpyHtoD(bufferVar, &address, sizeof(address)));
  std::vector<char> sites(sitesBytes);
  PMRT_CHECK(cuMemcpyDtoH(sites.data(), sitesVar, sitesBytes));
  s.hangSites.assign(sites.data(), strnlen(sites.data(), sites.size()));
  PMRT_CHECK(cuCtxSynchronize());
}

std::string hangReport() {
  State &s = state();
  if (!s.hangRecord)
    return "";
  uint32_t word[PMLIR_HANG_NUM_WORDS];
  for (int i = 0; i < PMLIR_HANG_NUM_WORDS; ++i)
    word[i] = s.hangRecord[i];
  char text[1024];
  if (!pmlirFormatHangRecord(word, s.hangSites.data(), s.hangSites.size(), text,
                             sizeof(text)))
    return "";
  return text;
}

void resetHangReport() {
  State &s = state();
  if (s.hangRecord)
    std::memset(const_cast<uint32_t *>(s.hangRecord), 0,
                PMLIR_HANG_RECORD_BYTES);
}

namespace {
/// A kernel's launch contract: 0 where it records nothing; and its
/// parameter layout, null without a record.
struct Contract {
  uint64_t minThreads = 0;
  uint64_t minSmem = 0;
  std::shared_ptr<const KernelLayout> layout;
};

/// The constant `name` of `module` (a u64), or 0 when absent.
uint64_t contractConstant(CUmodule module, const std::string &name) {
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
  if (cuModuleGetGlobal(&ptr, &bytes, module, name.c_str()) != CUDA_SUCCESS ||
      bytes != sizeof(uint64_t))
    return 0;
  uint64_t value = 0;
  PMRT_CHECK(cuMemcpyDtoH(&value, ptr, sizeof(value)));
  return value;
}

/// The contracts of the kernels getKernel returned, read once there (where
/// the module and the name are known).
std::mutex contractsMutex;
std::map<CUfunction, Contract> &contracts() {
  static std::map<CUfunction, Contract> table;
  return table;
}

Contract contractOf(CUfunction fn) {
  std::lock_guard<std::mutex> lock(contractsMutex);
  auto it = contracts().find(fn);
  return it == contracts().end() ? Contract() : it->second;
}

/// The layout record of kernel `name` of `module`, or null without one.
/// Exits(2) when the record is not one this runtime reads.
std::shared_ptr<const KernelLayout> readKernelLayout(CUmodule module,
                                                     const char *name) {
  std::string symbol = std::string(PMLIR_KERNEL_LAYOUT_PREFIX) + name;
  if (!mayHaveLayoutRecord(module, symbol))
    return nullptr;
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
  if (cuModuleGetGlobal(&ptr, &bytes, module, symbol.c_str()) != CUDA_SUCCESS ||
      bytes == 0)
    return nullptr;
  std::vector<char> text(bytes);
  PMRT_CHECK(cuMemcpyDtoH(text.data(), ptr, bytes));
  auto layout = std::make_shared<KernelLayout>();
  std::string why = parseKernelLayout(
      std::string(text.data(), strnlen(text.data(), bytes)), *layout);
  if (!why.empty()) {
    std::printf("ERROR: kernel '%s': its parameter layout (%s): %s\n", name,
                symbol.c_str(), why.c_str());
    std::fflush(stdout);
    std::_Exit(2);
  }
  return layout;
}
} // namespace

const KernelLayout *kernelLayout(CUfunction fn) {
  std::lock_guard<std::mutex> lock(contractsMutex);
  auto it = contracts().find(fn);
  return it == contracts().end() ? nullptr : it->second.layout.get();
}

CUfunction getKernel(CUmodule module, const char *name) {
  CUfunction fn = nullptr;
  CUresult r = cuModuleGetFunction(&fn, module, name);
  if (r != CUDA_SUCCESS) {
    std::printf("ERROR: kernel '%s' not found in module\n", name);
    reportDriverError(r, "cuModuleGetFunction", __FILE__, __LINE__);
  }
  Contract contract;
  contract.minThreads = contractConstant(
      module, std::string("__pipeline_mlir_min_block_") + name);
  contract.minSmem =
      contractConstant(module, std::string("__pipeline_mlir_min_smem_") + name);
  contract.layout = readKernelLayout(module, name);
  std::lock_guard<std::mutex> lock(contractsMutex);
  contracts()[fn] = contract;
  return fn;
}

std::string selfDir() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0)
    return ".";
  buf[n] = '\0';
  std::string path(buf);
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string cubinPath(int argc, char **argv, const std::string &defaultName) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--cubin") == 0)
      return argv[i + 1];
  return selfDir() + "/" + defaultName;
}

long long intOption(int argc, char **argv, const char *name,
                    long long fallback) {
  std::string flag = std::string("--") + name;
  for (int i = 1; i + 1 < argc; ++i)
    if (flag == argv[i])
      return std::atoll(argv[i + 1]);
  return fallback;
}

bool underSanitizer() {
  const char *env = std::getenv("PMRT_SANITIZER");
  return env && *env && std::strcmp(env, "0") != 0;
}

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  PMRT_CHECK(cuMemAlloc(&ptr_, bytes ? bytes : 4));
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_)
    cuMemFree(ptr_);
}

// Kernels run on a non-blocking stream, which does not wait for work on the
// legacy default stream: every copy and fill completes before it returns,
// so that a kernel launched next never races with it.
void DeviceBuffer::upload(const void *host, size_t bytes) {
  PMRT_CHECK(cuMemcpyHtoD(ptr_, host, bytes));
  PMRT_CHECK(cuCtxSynchronize());
}

void DeviceBuffer::download(void *host, size_t bytes) const {
  PMRT_CHECK(cuMemcpyDtoH(host, ptr_, bytes));
}

void DeviceBuffer::fill32(uint32_t value) {
  // cuMemsetD32 is asynchronous with respect to the host.
  PMRT_CHECK(cuMemsetD32(ptr_, value, bytes_ / 4));
  PMRT_CHECK(cuCtxSynchronize());
}

namespace {
/// Bytes per element of the byte-sized tensor-map data types, 0 otherwise.
size_t tensorMapElementBytes(CUtensorMapDataType dtype) {
  switch (dtype) {
  case CU_TENSOR_MAP_DATA_TYPE_UINT8:
    return 1;
  case CU_TENSOR_MAP_DATA_TYPE_UINT16:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
  case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
    return 2;
  case CU_TENSOR_MAP_DATA_TYPE_UINT32:
  case CU_TENSOR_MAP_DATA_TYPE_INT32:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
  case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
  case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ:
    return 4;
  case CU_TENSOR_MAP_DATA_TYPE_UINT64:
  case CU_TENSOR_MAP_DATA_TYPE_INT64:
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT64:
    return 8;
  default:
    return 0;
  }
}

/// Exits(2) with `why` unless it is empty; returns `value`.
template <typename T>
T orExit(const std::string &what, const std::string &why, T value) {
  if (!why.empty()) {
    std::printf("ERROR: %s: %s\n", what.c_str(), why.c_str());
    std::fflush(stdout);
    std::_Exit(2);
  }
  return value;
}
} // namespace

std::string TensorMap2D::check(CUdeviceptr base, CUtensorMapDataType dtype,
                               size_t elemBytes, uint64_t rows, uint64_t cols,
                               uint32_t boxRows, uint32_t boxCols) {
  size_t want = tensorMapElementBytes(dtype);
  if (want == 0)
    return "data type " + std::to_string(static_cast<int>(dtype)) +
           " is not a byte-sized type";
  if (elemBytes != want)
    return "element size " + std::to_string(elemBytes) + " does not match " +
           "data type " + std::to_string(static_cast<int>(dtype)) + " (" +
           std::to_string(want) + " bytes)";
  const uint64_t maxDim = uint64_t(1) << 32;
  if (rows == 0 || cols == 0 || rows > maxDim || cols > maxDim)
    return "global dims " + std::to_string(rows) + " x " +
           std::to_string(cols) + " not in 1..2^32";
  uint64_t pitch = cols * elemBytes;
  if (rows > 1 && (pitch % 16 != 0 || pitch >= (uint64_t(1) << 40)))
    return "row pitch of " + std::to_string(pitch) +
           " bytes is not a multiple of 16 below 2^40";
  if (base % 16 != 0)
    return "base address is not 16-byte aligned";
  if (boxRows == 0 || boxCols == 0 || boxRows > 256 || boxCols > 256)
    return "box " + std::to_string(boxRows) + " x " + std::to_string(boxCols) +
           " not in 1..256 per dimension";
  if (boxCols * elemBytes % 16 != 0)
    return "box row of " + std::to_string(boxCols * elemBytes) +
           " bytes is not a multiple of 16";
  return "";
}

TensorMap2D::TensorMap2D(CUdeviceptr base, CUtensorMapDataType dtype,
                         size_t elemBytes, uint64_t rows, uint64_t cols,
                         uint32_t boxRows, uint32_t boxCols)
    : storage_(
          orExit("invalid TMA descriptor",
                 check(base, dtype, elemBytes, rows, cols, boxRows, boxCols),
                 sizeof(CUtensorMap))) {
  CUtensorMap map;
  std::memset(&map, 0, sizeof(map));
  // Dimension 0 is the innermost (contiguous) one.
  cuuint64_t dims[2] = {cols, rows};
  cuuint64_t strides[1] = {cols * elemBytes}; // bytes, dims 1..rank-1
  cuuint32_t box[2] = {boxCols, boxRows};
  cuuint32_t elemStrides[2] = {1, 1};
  PMRT_CHECK(cuTensorMapEncodeTiled(
      &map, dtype, 2, reinterpret_cast<void *>(base), dims, strides, box,
      elemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  storage_.upload(&map, sizeof(map));
}

namespace {
/// `text` as an unsigned number in `value`; false when it is not one.
bool parseNumber(const std::string &text, uint64_t &value) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
    return false;
  char *end = nullptr;
  errno = 0;
  value = std::strtoull(text.c_str(), &end, 10);
  return errno == 0 && *end == '\0';
}
} // namespace

std::string parseKernelLayout(const std::string &text, KernelLayout &layout) {
  layout = KernelLayout();
  std::istringstream in(text);
  std::string line;
  bool header = false;
  uint64_t numArgs = 0, numParams = 0;
  for (unsigned lineNo = 1; std::getline(in, line); ++lineNo) {
    if (line.empty())
      continue;
    std::string where = "line " + std::to_string(lineNo) + " '" + line + "'";
    // The line's word, its index (arg and param lines), then key=value
    // fields; type= is the rest of the line.
    std::istringstream words(line);
    std::string word, index;
    words >> word;
    if (word != "abi")
      words >> index;
    std::map<std::string, std::string> fields;
    std::string token;
    while (words >> token) {
      if (token.compare(0, 5, "type=") == 0) {
        std::string rest;
        std::getline(words, rest);
        fields["type"] = token.substr(5) + rest;
        break;
      }
      size_t eq = token.find('=');
      if (eq == std::string::npos)
        return where + ": expects key=value, got '" + token + "'";
      fields[token.substr(0, eq)] = token.substr(eq + 1);
    }
    auto number = [&](const char *key, uint64_t &value,
                      bool required) -> std::string {
      auto it = fields.find(key);
      if (it == fields.end())
        return required ? where + ": expects " + key + "=N" : "";
      if (!parseNumber(it->second, value))
        return where + ": expects a number in " + key + "=, got '" +
               it->second + "'";
      return "";
    };
    std::string why;
    if (word == "abi") {
      uint64_t version = 0;
      if (!(why = number("version", version, true)).empty())
        return why;
      if (version != PMLIR_KERNEL_LAYOUT_VERSION)
        return "version " + std::to_string(version) + "; this runtime reads " +
               std::to_string(PMLIR_KERNEL_LAYOUT_VERSION) +
               " (rebuild the program with the compiler's runtime)";
      if (!(why = number("args", numArgs, true)).empty() ||
          !(why = number("params", numParams, true)).empty() ||
          !(why = number("bytes", layout.bytes, true)).empty())
        return why;
      header = true;
      continue;
    }
    if (!header)
      return where + ": expects the 'abi' line first";
    uint64_t at = 0;
    if (word == "arg") {
      if (!parseNumber(index, at) || at != layout.args.size())
        return where + ": expects argument #" +
               std::to_string(layout.args.size());
      KernelLayout::Arg arg;
      arg.kind = fields["kind"];
      arg.type = fields["type"];
      uint64_t rank = 0;
      if (!(why = number("rank", rank, arg.kind == "memref")).empty())
        return why;
      if (arg.kind == "memref")
        arg.rank = static_cast<int>(rank);
      if (arg.kind.empty() || arg.type.empty())
        return where + ": expects kind= and type=";
      layout.args.push_back(arg);
      continue;
    }
    if (word != "param")
      return where + ": expects an abi, arg or param line";
    if (!parseNumber(index, at) || at != layout.params.size())
      return where + ": expects parameter #" +
             std::to_string(layout.params.size());
    KernelLayout::Param param;
    uint64_t arg = 0, dim = 0, bits = 0;
    if (!(why = number("arg", arg, true)).empty())
      return why;
    if (layout.args.empty() || arg + 1 != layout.args.size())
      return where + ": expects a parameter of argument #" +
             std::to_string(layout.args.size() - 1);
    param.arg = static_cast<unsigned>(arg);
    param.kind = fields["kind"];
    param.field = fields["field"];
    bool perDim = param.field == "size" || param.field == "stride";
    if (!(why = number("dim", dim, perDim)).empty() ||
        !(why = number("bits", bits, false)).empty() ||
        !(why = number("offset", param.offset, true)).empty() ||
        !(why = number("size", param.size, true)).empty() ||
        !(why = number("align", param.align, true)).empty())
      return why;
    KernelLayout::Arg &owner = layout.args.back();
    if (param.kind != owner.kind)
      return where + ": expects kind=" + owner.kind + ", the argument's";
    if (perDim && (owner.rank < 0 || dim >= uint64_t(owner.rank)))
      return where + ": expects a dimension of the memref's " +
             std::to_string(owner.rank);
    if (perDim)
      param.dim = static_cast<int>(dim);
    param.bits = static_cast<unsigned>(bits);
    owner.params.push_back(layout.params.size());
    layout.params.push_back(param);
  }
  if (!header)
    return "no 'abi' line";
  if (layout.args.size() != numArgs || layout.params.size() != numParams)
    return "expects " + std::to_string(numArgs) + " arguments and " +
           std::to_string(numParams) + " parameters, got " +
           std::to_string(layout.args.size()) + " and " +
           std::to_string(layout.params.size());
  for (size_t a = 0; a < layout.args.size(); ++a)
    if (layout.args[a].params.empty())
      return "argument #" + std::to_string(a) + " has no parameter";
  return "";
}

namespace {
/// "1 byte", "8 bytes".
std::string byteCount(uint64_t bytes) {
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}
} // namespace

std::string describeArgument(const KernelLayout &layout, size_t arg) {
  return "argument #" + std::to_string(arg) + " (" + layout.args[arg].type +
         ")";
}

std::string describeParameter(const KernelLayout &layout, size_t index) {
  const KernelLayout::Param &param = layout.params[index];
  std::string what = "parameter #" + std::to_string(index) + " (";
  if (!param.field.empty()) {
    what += param.field;
    if (param.dim >= 0)
      what += " " + std::to_string(param.dim);
    what += " of ";
  }
  return what + describeArgument(layout, param.arg) + ", " +
         byteCount(param.size) + " at offset " + std::to_string(param.offset) +
         ")";
}

KernelArgs &KernelArgs::value(const void *data, size_t size) {
  const auto *first = static_cast<const unsigned char *>(data);
  storage_.emplace_back(first, first + size);
  return *this;
}

KernelArgs &KernelArgs::bytes(const void *data, size_t size) {
  groups_.push_back({storage_.size(), 1, -1});
  return value(data, size);
}

KernelArgs &KernelArgs::ptr(CUdeviceptr p) { return bytes(&p, sizeof(p)); }
KernelArgs &KernelArgs::u8(uint8_t v) { return bytes(&v, sizeof(v)); }
KernelArgs &KernelArgs::u16(uint16_t v) { return bytes(&v, sizeof(v)); }
KernelArgs &KernelArgs::i32(int32_t v) { return bytes(&v, sizeof(v)); }
KernelArgs &KernelArgs::i64(int64_t v) { return bytes(&v, sizeof(v)); }

KernelArgs &KernelArgs::memref(CUdeviceptr base, int64_t offset,
                               const std::vector<int64_t> &sizes,
                               const std::vector<int64_t> &strides) {
  if (sizes.size() != strides.size()) {
    std::fprintf(stderr,
                 "pmrt: a memref argument needs one stride per size, got %zu "
                 "sizes and %zu strides\n",
                 sizes.size(), strides.size());
    std::exit(2);
  }
  groups_.push_back(
      {storage_.size(), 2 + 2 * sizes.size(), static_cast<int>(sizes.size())});
  value(&base, sizeof(base));
  value(&offset, sizeof(offset));
  for (const int64_t &size : sizes)
    value(&size, sizeof(size));
  for (const int64_t &stride : strides)
    value(&stride, sizeof(stride));
  return *this;
}

KernelArgs &KernelArgs::memref(CUdeviceptr base,
                               const std::vector<int64_t> &sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= sizes[i];
  }
  return memref(base, 0, sizes, strides);
}

void **KernelArgs::data() {
  pointers_.clear();
  for (auto &bytes : storage_)
    pointers_.push_back(bytes.data());
  return pointers_.empty() ? nullptr : pointers_.data();
}

std::string KernelArgs::pack(const KernelLayout &layout,
                             std::vector<void *> &params) {
  params.clear();
  // One value per parameter, of its size: as given (a dynamic memref may
  // be given field by field).
  bool asGiven = storage_.size() == layout.params.size();
  for (size_t j = 0; asGiven && j < storage_.size(); ++j)
    asGiven = storage_[j].size() == layout.params[j].size;
  if (asGiven) {
    for (auto &value : storage_)
      params.push_back(value.data());
    return "";
  }
  if (groups_.size() != layout.args.size()) {
    std::string want;
    for (size_t a = 0; a < layout.args.size(); ++a)
      want += (a ? ", " : "") + layout.args[a].type;
    return "the kernel takes " + std::to_string(layout.args.size()) +
           " arguments (" + want + ") in " +
           std::to_string(layout.params.size()) +
           " parameters (its recorded layout), got " +
           std::to_string(groups_.size()) + " arguments in " +
           std::to_string(storage_.size()) + " values";
  }
  for (size_t a = 0; a < groups_.size(); ++a) {
    const Group &group = groups_[a];
    const KernelLayout::Arg &arg = layout.args[a];
    if (group.rank >= 0) {
      if (arg.kind != "memref")
        return describeArgument(layout, a) + " is a " + arg.kind +
               ", got a memref of rank " + std::to_string(group.rank);
      if (arg.rank != group.rank)
        return describeArgument(layout, a) + " is a memref of rank " +
               std::to_string(arg.rank) + ", got a memref of rank " +
               std::to_string(group.rank);
      // Its pointer (the allocated and the aligned one without the
      // bare-pointer convention), offset, sizes and strides: what its
      // parameters hold.
      for (size_t j : arg.params) {
        const KernelLayout::Param &param = layout.params[j];
        size_t at = 0;
        if (param.field == "offset")
          at = 1;
        else if (param.field == "size")
          at = 2 + param.dim;
        else if (param.field == "stride")
          at = 2 + group.rank + param.dim;
        else if (param.field != "ptr" && param.field != "allocated" &&
                 param.field != "aligned")
          return describeParameter(layout, j) + " holds the field '" +
                 param.field + "', which memref() does not give";
        params.push_back(storage_[group.first + at].data());
      }
      continue;
    }
    size_t j = arg.params.front();
    size_t given = storage_[group.first].size();
    if (arg.params.size() != 1)
      return describeArgument(layout, a) + " is passed in " +
             std::to_string(arg.params.size()) + " parameters" +
             (arg.kind == "memref"
                  ? " (its pointer, offset, sizes and strides): pass it with "
                    "memref(base, sizes) or memref(base, offset, sizes, "
                    "strides)"
                  : "") +
             ", got one value of " + byteCount(given);
    if (given != layout.params[j].size)
      return describeParameter(layout, j) + " takes " +
             byteCount(layout.params[j].size) + ", got " +
             std::to_string(given);
    params.push_back(storage_[group.first].data());
  }
  return "";
}

double timeoutSeconds() {
  if (const char *env = std::getenv("PMRT_TIMEOUT_S")) {
    double t = std::atof(env);
    if (t > 0)
      return t;
  }
  return 20.0;
}

void waitWithWatchdog(const char *test) {
  using Clock = std::chrono::steady_clock;
  const double limit = timeoutSeconds();
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(limit));
  while (true) {
    CUresult r = cuStreamQuery(state().stream);
    if (r == CUDA_SUCCESS)
      return;
    std::string hang = hangReport();
    if (!hang.empty()) {
      // The kernel named where it waits: say so, then end as a hang (the
      // kernel traps, or keeps waiting with hang-keep-waiting).
      std::printf("%s\nHANG: hang in test %s (reported by the kernel)\n",
                  hang.c_str(), test);
      std::fflush(stdout);
      std::_Exit(3);
    }
    if (r != CUDA_ERROR_NOT_READY) {
      std::printf("ERROR: kernel of test %s failed\n", test);
      reportDriverError(r, "cuStreamQuery", __FILE__, __LINE__);
    }
    if (Clock::now() >= deadline) {
      std::printf("HANG: hang in test %s (kernel still running after %.1f s)\n",
                  test, limit);
      std::fflush(stdout);
      // The kernel cannot be stopped from the host; ending the process makes
      // the driver destroy the context and the kernel with it.
      std::_Exit(3);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

CUstream stream() { return state().stream; }

std::string checkLaunchConfig(const LaunchConfig &cfg) {
  static const char *const axes[3] = {"x", "y", "z"};
  static const unsigned maxGrid[3] = {2147483647u, 65535u, 65535u};
  static const unsigned maxBlock[3] = {1024u, 1024u, 64u};
  uint64_t threads = 1, ctas = 1;
  for (int i = 0; i < 3; ++i) {
    std::string axis = axes[i];
    if (cfg.grid[i] == 0 || cfg.grid[i] > maxGrid[i])
      return "grid " + axis + " = " + std::to_string(cfg.grid[i]) +
             " not in 1.." + std::to_string(maxGrid[i]);
    if (cfg.block[i] == 0 || cfg.block[i] > maxBlock[i])
      return "block " + axis + " = " + std::to_string(cfg.block[i]) +
             " not in 1.." + std::to_string(maxBlock[i]);
    if (cfg.cluster[i] == 0 || cfg.grid[i] % cfg.cluster[i] != 0)
      return "cluster " + axis + " = " + std::to_string(cfg.cluster[i]) +
             " does not divide grid " + axis + " = " +
             std::to_string(cfg.grid[i]);
    threads *= cfg.block[i];
    ctas *= cfg.cluster[i];
  }
  if (threads > 1024)
    return std::to_string(threads) + " threads per block, more than 1024";
  if (ctas > 16)
    return "cluster of " + std::to_string(ctas) + " CTAs, more than 16";
  return "";
}

std::string checkLaunchContract(CUfunction fn, const LaunchConfig &cfg) {
  Contract contract = contractOf(fn);
  if (cfg.block[0] < contract.minThreads)
    return "block (" + std::to_string(cfg.block[0]) + ", " +
           std::to_string(cfg.block[1]) + ", " + std::to_string(cfg.block[2]) +
           ") has " + std::to_string(cfg.block[0]) +
           " threads along x; the kernel's roles need at least " +
           std::to_string(contract.minThreads) +
           " (its launch contract): with fewer, a role that waits on a "
           "barrier never runs or its arrivals never complete a phase, and "
           "the kernel hangs";
  if (cfg.dynamicSmem < contract.minSmem)
    return std::to_string(cfg.dynamicSmem) +
           " bytes of dynamic shared memory; the kernel needs at least " +
           std::to_string(contract.minSmem) +
           " (its launch contract: its barriers and views at known offsets)";
  return "";
}

void launch(const char *test, CUfunction fn, const LaunchConfig &cfg,
            KernelArgs &args) {
  orExit(std::string("launch of test ") + test + ": invalid configuration",
         checkLaunchConfig(cfg), 0);
  orExit(std::string("launch of test ") + test +
             ": refused by the kernel's "
             "launch contract",
         checkLaunchContract(fn, cfg), 0);
  if (cfg.dynamicSmem > 48 * 1024)
    PMRT_CHECK(cuFuncSetAttribute(
        fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, cfg.dynamicSmem));
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = cfg.grid[0];
  config.gridDimY = cfg.grid[1];
  config.gridDimZ = cfg.grid[2];
  config.blockDimX = cfg.block[0];
  config.blockDimY = cfg.block[1];
  config.blockDimZ = cfg.block[2];
  config.sharedMemBytes = cfg.dynamicSmem;
  config.hStream = state().stream;
  CUlaunchAttribute attrs[1];
  std::memset(attrs, 0, sizeof(attrs));
  if (cfg.cluster[0] * cfg.cluster[1] * cfg.cluster[2] > 1) {
    attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attrs[0].value.clusterDim.x = cfg.cluster[0];
    attrs[0].value.clusterDim.y = cfg.cluster[1];
    attrs[0].value.clusterDim.z = cfg.cluster[2];
    config.attrs = attrs;
    config.numAttrs = 1;
  }
  // Packed by the kernel's recorded layout; as given without one.
  std::vector<void *> params;
  void **data = args.data();
  if (const KernelLayout *layout = kernelLayout(fn)) {
    orExit(std::string("launch of test ") + test +
               ": arguments refused by the kernel's parameter layout",
           args.pack(*layout, params), 0);
    data = params.empty() ? nullptr : params.data();
  }
  CUresult r = cuLaunchKernelEx(&config, fn, data, nullptr);
  if (r != CUDA_SUCCESS) {
    std::printf("ERROR: launch of test %s failed\n", test);
    reportDriverError(r, "cuLaunchKernelEx", __FILE__, __LINE__);
  }
}

double launchAndWait(const char *test, CUfunction fn, const LaunchConfig &cfg,
                     KernelArgs &args) {
  auto start = std::chrono::steady_clock::now();
  launch(test, fn, cfg, args);
  waitWithWatchdog(test);
  auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(end - start).count();
}

void Report::check(const std::string &test, bool ok, const std::string &why) {
  if (ok) {
    ++passed_;
    std::printf("PASS: %s\n", test.c_str());
  } else {
    ++failed_;
    std::printf("FAIL: %s: %s\n", test.c_str(), why.c_str());
  }
  std::fflush(stdout);
}

int Report::finish() const {
  std::printf("%s: %d passed, %d failed\n", program_.c_str(), passed_, failed_);
  std::fflush(stdout);
  return failed_ == 0 ? 0 : 1;
}

bool compareU32(const std::vector<uint32_t> &got,
                const std::vector<uint32_t> &want, std::string &why) {
  if (got.size() != want.size()) {
    why += "size " + std::to_string(got.size()) + " vs " +
           std::to_string(want.size()) + "; ";
    return false;
  }
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i])
      continue;
    if (bad < 5) {
      char line[128];
      std::snprintf(line, sizeof(line), "[%zu]: got 0x%08x, want 0x%08x; ", i,
                    got[i], want[i]);
      why += line;
    }
    ++bad;
  }
  if (bad)
    why += std::to_string(bad) + " of " + std::to_string(got.size()) +
           " elements differ";
  return bad == 0;
}

uint32_t mix32(uint32_t x) {
  x *= 0x9E3779B1u;
  x ^= x >> 16;
  return x;
}

} // namespace pmrt
