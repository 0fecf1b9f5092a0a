// A module convert-to-llvm lowers without any diagnostic.
func.func @f(%a: memref<4xf16>) {
  return
}
