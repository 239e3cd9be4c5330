// Daemon: placeholder.
