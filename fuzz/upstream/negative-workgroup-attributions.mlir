gpu.module @m {
  "gpu.func"() ({
  ^bb0(%a: f32):
    "gpu.return"() : () -> ()
  }) {function_type = (f32) -> (), sym_name = "k", workgroup_attributions = -1 : i64} : () -> ()
}
