internal import CDBus

/// Whether avahi-daemon holds its name on the D-Bus system bus, asked of the bus itself
/// (`NameHasOwner`): the answer does not wait for the daemon, which may be busy for a second
/// with the answers of hundreds of devices. avahi-client asks the same before it talks to the
/// daemon, and gives `AVAHI_ERR_NO_DAEMON` when the name has no owner or the bus is missing.
enum AvahiBusName {
    /// The name avahi-daemon owns on the system bus.
    static let name = "org.freedesktop.Avahi"

    /// Nil when the daemon holds its name; else the error avahi-client would give.
    static func absence() -> AvahiError? {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        // A private connection: the shared one would be kept for the process's life.
        guard let connection = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error) else {
            return busError(&error)
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        defer {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
        }
        let owned = dbus_bus_name_has_owner(connection, name, &error)
        if dbus_error_is_set(&error) != 0 { return busError(&error) }
        return owned != 0 ? nil : .noDaemon
    }

    /// avahi-client's reading of a bus error: a bus that is not there (or refuses us) is no
    /// daemon to talk to; anything else is a D-Bus failure.
    private static func busError(_ error: inout DBusError) -> AvahiError {
        guard dbus_error_is_set(&error) != 0, let name = error.name else { return .noDaemon }
        switch String(cString: name) {
        case DBUS_ERROR_FILE_NOT_FOUND, DBUS_ERROR_NO_SERVER:
            return .noDaemon
        case DBUS_ERROR_ACCESS_DENIED, DBUS_ERROR_AUTH_FAILED:
            return .accessDenied
        default:
            return .dbusError
        }
    }
}
