import SystemClients

/// The daemon's clock is the services bag's (SystemClients' `ClockClient`: `live`, and `failing`, which reports
/// the test that reaches it and throws); tests move it and never sleep (the canary schedule).
typealias DaemonClock = ClockClient
