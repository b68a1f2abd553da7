extension ExitCode {
    /// What the status means, in a line: for the man page (every case has one, or the switch
    /// does not compile).
    var summary: String {
        switch self {
        case .ok: "success"
        case .noDevices: "no device was listed, with --fail-if-empty; or a receiver did not answer status"
        case .checkFailed: "plist check or advise found an error, or a simulate expectation failed"
        case .usage: "the command line was wrong (EX_USAGE)"
        case .dataError: "an input file could not be read or is malformed (EX_DATAERR)"
        case .unavailable:
            "the chosen backend or daemon is unavailable, or a listing has no network interface with multicast up (EX_UNAVAILABLE)"
        case .software: "an internal error (EX_SOFTWARE)"
        case .cannotCreate:
            "a path to write is not a regular file, or a spool not a directory: refused and left alone (EX_CANTCREAT)"
        case .ioError: "standard output or the event spool could not be written (EX_IOERR)"
        case .eventsRemain: "report send left events in the spool (EX_TEMPFAIL)"
        case .configuration: "serve's --web-config file does not read, or asks for what serve cannot do (EX_CONFIG)"
        case .interrupted: "ended by SIGINT before it was done (watch exits 0)"
        case .terminated: "ended by SIGTERM before it was done (watch exits 0)"
        }
    }
}
