// The client library.
