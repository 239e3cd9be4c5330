// FileWatch: placeholder until the module lands.
