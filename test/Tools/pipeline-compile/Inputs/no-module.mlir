func.func @host() {
  return
}
