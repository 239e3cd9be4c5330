print("rippled: not built yet")
