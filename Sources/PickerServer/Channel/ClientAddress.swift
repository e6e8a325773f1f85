/// The address of the client whose request is being answered (`127.0.0.1`, `::1`, …), for limits
/// kept per address; set for each connection's requests (``PickerHTTPChannel``).
enum ClientAddress {
    @TaskLocal static var current = "unknown"
}
