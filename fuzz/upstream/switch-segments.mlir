func.func @f(%x: i32) {
  "cf.switch"(%x) [^bb1, ^bb1] {case_values = dense<[1]> : vector<1xi32>, case_operand_segments = array<i32>, operandSegmentSizes = array<i32: 1, 0, 0>} : (i32) -> ()
^bb1:
  return
}
