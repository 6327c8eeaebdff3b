/// Schema statements both backends run alike.
enum SharedSchema {
    /// SQLite's migration 8 and PostgreSQL's 9: the APNs environment a device's token belongs to
    /// (`sandbox` or `production`), as its registration said; NULL for a device that did not say,
    /// which is sent to its app's environment (the one its APNs credentials name). The same
    /// statement on both backends.
    static let deviceAPNsEnvironment = """
        ALTER TABLE devices ADD COLUMN apns_environment TEXT;
        """
}
