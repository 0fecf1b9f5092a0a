//===- pmrt.h - pipeline-mlir host runtime ----------------------*- C++ -*-===//
//
// pmrt, the host runtime of pipeline-mlir over the CUDA driver API, used by
// the GPU integration tests and the benchmarks: load a cubin, allocate and
// fill buffers, encode TMA descriptors, launch with grid / block / cluster
// dims and dynamic shared memory, wait with a watchdog, copy back and compare.
// CMake target PipelineMLIRRuntime (runtime/CMakeLists.txt).
//
// The binaries built on it depend on libcuda.so.1 alone at run time (libstdc++
// is linked statically), so they run on a GPU machine as they are.
//
// Every driver call is checked: a failure prints the call, the error name and
// string, and exits with status 2. A kernel that does not finish before the
// deadline is reported as "HANG: hang in test <name>" and the process exits
// with status 3 (the driver tears the context down).
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_RUNTIME_PMRT_H
#define PIPELINE_RUNTIME_PMRT_H

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pmrt {

/// Reports a failed driver call and exits(2). Used by PMRT_CHECK.
[[noreturn]] void reportDriverError(CUresult result, const char *call,
                                    const char *file, int line);

/// "NAME: description" of a driver result. The driver's own text when it can
/// give one; otherwise (the toolkit's stub libcuda answers every call with
/// CUDA_ERROR_STUB_LIBRARY) the runtime's, which says what to do about it.
std::string driverErrorText(CUresult result);

#define PMRT_CHECK(call)                                                       \
  do {                                                                         \
    CUresult pmrt_result_ = (call);                                            \
    if (pmrt_result_ != CUDA_SUCCESS)                                          \
      ::pmrt::reportDriverError(pmrt_result_, #call, __FILE__, __LINE__);      \
  } while (0)

/// Initializes the driver, picks device 0 (or $PMRT_DEVICE) and makes its
/// primary context current. Prints one line describing the device.
void init();

/// Properties of the device picked by init().
int smCount();
int computeCapabilityMajor();
int computeCapabilityMinor();
std::string deviceName();

/// Loads a cubin (or PTX) file. Exits(2) with a message when the file is
/// missing or the driver rejects it.
CUmodule loadModule(const std::string &path);

/// The kernel `name` of `module`; exits(2) when it is missing.
CUfunction getKernel(CUmodule module, const char *name);

/// The hang report (pipeline-compile --hang-report): if `module` has the
/// report's globals, point its `__pipeline_hang_buffer` at mapped host
/// memory and read its site table. loadModule calls it for a module whose
/// image names the report's globals (the lookup of a missing global is a
/// failing driver call, which memcheck reports). While a kernel
/// runs, waitWithWatchdog polls the record and, once a kernel wrote one,
/// prints the decoded report and ends the program as a hang (status 3).
void installHangReport(CUmodule module);

/// The decoded report ("hang: pipeline ... waits for stage ..."), or "" when
/// no kernel wrote one.
std::string hangReport();

/// Clears the record, e.g. between two launches of a test program.
void resetHangReport();

/// Where the test binary lives: cubins are looked up next to it.
std::string selfDir();

/// Parses `--cubin PATH` from argv, else returns selfDir()/<defaultName>.
std::string cubinPath(int argc, char **argv, const std::string &defaultName);

/// The value of integer option `--<name> N` in argv, else `fallback`.
long long intOption(int argc, char **argv, const char *name,
                    long long fallback);

/// True when running under compute-sanitizer (the run-all script sets
/// PMRT_SANITIZER); tests may shrink their problem sizes.
bool underSanitizer();

/// A device allocation; freed by the destructor.
class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  CUdeviceptr ptr() const { return ptr_; }
  size_t bytes() const { return bytes_; }

  void upload(const void *host, size_t bytes);
  void download(void *host, size_t bytes) const;
  /// Fills the buffer with the 32-bit pattern `value` (poison).
  void fill32(uint32_t value);

  template <typename T> void upload(const std::vector<T> &host) {
    upload(host.data(), host.size() * sizeof(T));
  }
  template <typename T> std::vector<T> download(size_t count) const {
    std::vector<T> host(count);
    download(host.data(), count * sizeof(T));
    return host;
  }

private:
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

/// A 2-D row-major tensor map (cuTensorMapEncodeTiled) copied into device
/// memory, the form in which MLIR's nvgpu lowering takes a
/// `!nvgpu.tensormap.descriptor` kernel argument (a generic pointer to the
/// 128-byte descriptor).
class TensorMap2D {
public:
  /// Why cuTensorMapEncodeTiled would refuse these parameters, or "" when it
  /// would not: checked before any driver call (global dims of 1..2^32
  /// elements, a row pitch that is a multiple of 16 bytes below 2^40, a
  /// 16-byte aligned base, boxes of 1..256 elements per dimension whose
  /// inner extent is a multiple of 16 bytes, and an element size that
  /// matches `dtype`).
  static std::string check(CUdeviceptr base, CUtensorMapDataType dtype,
                           size_t elemBytes, uint64_t rows, uint64_t cols,
                           uint32_t boxRows, uint32_t boxCols);

  /// `rows` x `cols` elements of `dtype` at `base`; boxes of `boxRows` x
  /// `boxCols`, no swizzle, no interleave, out-of-bound elements zero.
  /// Exits(2) with check()'s message when the parameters are invalid.
  TensorMap2D(CUdeviceptr base, CUtensorMapDataType dtype, size_t elemBytes,
              uint64_t rows, uint64_t cols, uint32_t boxRows, uint32_t boxCols);
  CUdeviceptr devicePtr() const { return storage_.ptr(); }

private:
  DeviceBuffer storage_;
};

/// Launch geometry.
struct LaunchConfig {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned cluster[3] = {1, 1, 1}; ///< {1,1,1}: no cluster attribute.
  unsigned dynamicSmem = 0;
};

/// Why the driver would refuse to launch with `cfg`, or "" when the
/// geometry is valid: every dim at least 1, at most 1024 threads per block
/// (block z at most 64), a cluster of at most 16 CTAs whose dims divide the
/// grid's. Checked by launch() before the driver is called.
std::string checkLaunchConfig(const LaunchConfig &cfg);

/// Why the kernel's launch contract refuses `cfg`, or "" when it does not:
/// the compiler records, for each kernel, the least threads along x its
/// roles need (`__pipeline_mlir_min_block_<kernel>`: the declared block's
/// x, or the least whole-warp block in which every role runs and, where a
/// role grows with the block, every barrier gets its count) and the least
/// dynamic shared memory (`__pipeline_mlir_min_smem_<kernel>`), as
/// constants of the module, read by getKernel(); a kernel without them, or
/// a function not returned by getKernel(), has no contract. Checked by
/// launch() before the driver is called.
std::string checkLaunchContract(CUfunction fn, const LaunchConfig &cfg);

/// A kernel's parameter layout as the compiler recorded it
/// (pipeline-legalize-kernel-abi: the module's global
/// `__pipeline_mlir_abi_<kernel>`, include/pipeline-c/KernelLayout.h,
/// docs/lowering.md "Kernel ABI"): the kernel's arguments in order, and the
/// parameters each is passed in.
struct KernelLayout {
  struct Param {
    unsigned arg = 0;  ///< the argument it comes from
    std::string kind;  ///< the argument's kind
    std::string field; ///< of a memref: ptr, allocated, aligned, offset,
                       ///< size, stride; of an unranked one: rank, ptr
    int dim = -1;      ///< of a size or a stride
    unsigned bits = 0; ///< of a scalar: its significant bits
    uint64_t offset = 0, size = 0, align = 1;
  };
  struct Arg {
    /// scalar, vector, aggregate, pointer, tensormap, memref,
    /// unranked-memref.
    std::string kind;
    int rank = -1;              ///< of a memref
    std::string type;           ///< its MLIR type
    std::vector<size_t> params; ///< its parameters (indices into params)
  };
  std::vector<Arg> args;
  std::vector<Param> params;
  uint64_t bytes = 0; ///< the end of the last parameter
};

/// Parses a layout record (the text of the global). Returns "" or why the
/// text is not a record of the version this runtime reads.
std::string parseKernelLayout(const std::string &text, KernelLayout &layout);

/// "argument #1 (memref<?x4xi32>)".
std::string describeArgument(const KernelLayout &layout, size_t arg);

/// "parameter #3 (size 0 of argument #1 (memref<?x4xi32>), 8 bytes at
/// offset 16)".
std::string describeParameter(const KernelLayout &layout, size_t param);

/// The recorded layout of a kernel returned by getKernel(), or null: a
/// kernel compiled without the record (an older compiler, another
/// front end) has none, and launch() passes its KernelArgs as they are,
/// unchecked, as before the record existed.
const KernelLayout *kernelLayout(CUfunction fn);

/// Kernel parameters in declaration order, as the kernel ABI of
/// docs/lowering.md has them: a memref of static shape is one device
/// pointer (ptr), any other memref its pointer, offset, sizes and strides
/// (memref); scalars by value, an integer of a width NVPTX cannot pass
/// widened to the next power of two (an i2 or i7 is one byte: u8; an i33 is
/// i64), the value in its low bits.
///
/// Each call adds one argument. For a kernel with a recorded layout
/// (kernelLayout), launch() passes them by it (pack): memref() suits any
/// memref argument, static (its pointer alone is passed) or dynamic, and
/// an argument whose bytes do not fit its parameters is refused with the
/// argument and the parameter named.
class KernelArgs {
public:
  KernelArgs &ptr(CUdeviceptr p);
  KernelArgs &u8(uint8_t v);
  KernelArgs &u16(uint16_t v);
  KernelArgs &i32(int32_t v);
  KernelArgs &i64(int64_t v);
  /// A memref with dynamic sizes, strides or offset: its aligned `base`,
  /// then `offset`, `sizes` and `strides` in elements, one i64 each (the
  /// type's static values win in the kernel; pass them anyway). Exits(2)
  /// when `sizes` and `strides` differ in length.
  KernelArgs &memref(CUdeviceptr base, int64_t offset,
                     const std::vector<int64_t> &sizes,
                     const std::vector<int64_t> &strides);
  /// A row-major memref of `sizes`: offset 0, strides from the sizes.
  KernelArgs &memref(CUdeviceptr base, const std::vector<int64_t> &sizes);
  /// Any other parameter: `size` bytes as the kernel ABI lays them out.
  KernelArgs &bytes(const void *data, size_t size);
  /// The parameters so far, one pointer each (cuLaunchKernel's form).
  void **data();
  size_t size() const { return storage_.size(); }

  /// The parameters of these arguments for a kernel of `layout`, one
  /// pointer each, in `params`: the values as given when they are one per
  /// parameter of its size; otherwise argument by argument, a memref()
  /// giving the fields of the descriptor its parameters hold (its pointer
  /// alone for a static memref) and any other argument one value per
  /// parameter of the parameter's size. Returns "" or why the arguments
  /// do not fit, naming the argument and the parameter.
  std::string pack(const KernelLayout &layout, std::vector<void *> &params);

private:
  /// The values of one argument: storage_[first, first + count); a
  /// memref() of `rank` (-1 for any other call).
  struct Group {
    size_t first;
    size_t count;
    int rank;
  };
  KernelArgs &value(const void *data, size_t size);
  std::vector<std::vector<unsigned char>> storage_;
  std::vector<Group> groups_;
  std::vector<void *> pointers_;
};

/// The stream every launch of the runtime goes to (for events around a
/// launch, see launch()).
CUstream stream();

/// Launches `fn` with cuLaunchKernelEx on the runtime's stream, like
/// launchAndWait, and returns without waiting; follow with
/// waitWithWatchdog(test). An invalid `cfg` (checkLaunchConfig), one the
/// kernel's contract refuses (checkLaunchContract) or arguments that do
/// not fit the kernel's recorded layout (KernelArgs::pack) are reported
/// and exit(2).
void launch(const char *test, CUfunction fn, const LaunchConfig &cfg,
            KernelArgs &args);

/// Launches `fn` with cuLaunchKernelEx on the runtime's stream (sets the
/// cluster-dimension attribute when cluster dims are not all 1 and raises the
/// dynamic shared-memory limit when needed), then waits with the watchdog.
/// Returns the elapsed milliseconds.
double launchAndWait(const char *test, CUfunction fn, const LaunchConfig &cfg,
                     KernelArgs &args);

/// Waits for the runtime's stream with a deadline of timeoutSeconds()
/// seconds; on expiry prints "HANG: hang in test <test>" and exits(3).
void waitWithWatchdog(const char *test);

/// The watchdog deadline: $PMRT_TIMEOUT_S, else 20 seconds.
double timeoutSeconds();

/// Collects PASS/FAIL lines of one test binary.
class Report {
public:
  explicit Report(std::string program) : program_(std::move(program)) {}
  /// Prints "PASS: <test>" or "FAIL: <test>: <why>".
  void check(const std::string &test, bool ok, const std::string &why = "");
  /// Prints "<program>: N passed, M failed"; returns the exit status.
  int finish() const;

private:
  std::string program_;
  int passed_ = 0;
  int failed_ = 0;
};

/// Compares `got` with `want` element by element; on the first mismatches
/// (up to 5) appends "i: got X, want Y" to `why`. Returns true when equal.
bool compareU32(const std::vector<uint32_t> &got,
                const std::vector<uint32_t> &want, std::string &why);

/// A deterministic 32-bit mixing function, the same as the kernels' `hash`
/// (see Inputs of the kernels): used to derive payload values.
uint32_t mix32(uint32_t x);

} // namespace pmrt

#endif // PIPELINE_RUNTIME_PMRT_H
