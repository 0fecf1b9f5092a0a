/*===- KernelLayout.h - the recorded parameter layout of a kernel --*- C
-*-===*\
|*                                                                            *|
|* The name and the version of the record of a kernel's parameter layout     *|
|* that pipeline-legalize-kernel-abi writes into the module (one global per  *|
|* kernel) and the launchers read: the C++ runtime (pmrt) includes this      *|
|* header, the Python launcher (pipeline_mlir/driver.py) spells the same     *|
|* two values and a test compares them. docs/lowering.md ("Kernel ABI")      *|
|* describes the record line by line.                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PIPELINE_C_KERNELLAYOUT_H
#define PIPELINE_C_KERNELLAYOUT_H

/* The global of kernel K is PMLIR_KERNEL_LAYOUT_PREFIX "K": NUL-terminated
 * text in global memory (`.visible .global .b8` in the PTX, a symbol of the
 * cubin), one line per record:
 *
 *   abi version=1 args=A params=P bytes=B
 *   arg I kind=KIND [rank=R] type=MLIR-TYPE
 *   param J arg=I kind=KIND [field=F] [dim=D] [bits=W] offset=O size=S align=N
 *
 * Each argument's line comes before the lines of its parameters; `type=`
 * is the rest of its line. */
#define PMLIR_KERNEL_LAYOUT_PREFIX "__pipeline_mlir_abi_"

/* The version this header describes; a launcher refuses another. */
#define PMLIR_KERNEL_LAYOUT_VERSION 1

#endif /* PIPELINE_C_KERNELLAYOUT_H */
