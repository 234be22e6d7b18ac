using System.Runtime.InteropServices;
using Microsoft.EntityFrameworkCore.Diagnostics;

namespace ProtocolBench.Shared.Domain.Data;

/// <summary>
/// Keeps a SQLite service on the file at its configured path. A pooled connection keeps the file it opened: deleted
/// or replaced under a running service, the pool would go on reading and acknowledging writes into a file nobody can
/// see again, and a connection opened while the file was write-protected stays read-only for good. So every connection
/// taken from the pool is checked (one stat()), and every commit is checked after it happened, before it is acknowledged:
/// a connection whose file has moved is dropped with its pool and the call fails with UNAVAILABLE; a read-only one is
/// used once and then discarded, so the service recovers as soon as the file is writable again.
/// </summary>
public sealed class SqliteFileGuard : IDbConnectionInterceptor, IDbTransactionInterceptor
{
    /// <summary>SQLITE_READONLY_DBMOVED: SQLite's own code for "the database file has been moved or deleted".</summary>
    private const int DatabaseMovedCode = 1032;

    // SQLITE_FCNTL_HAS_MOVED: the unix VFS compares the inode of the open file with the one at its path.
    private const int HasMovedOperation = 20;
    private const int SqliteOk = 0;

    public static SqliteFileGuard Instance { get; } = new();

    private SqliteFileGuard()
    {
    }

    public void ConnectionOpened(DbConnection connection, ConnectionEndEventData eventData) => CheckOpened(connection);

    public Task ConnectionOpenedAsync(DbConnection connection, ConnectionEndEventData eventData, CancellationToken cancellationToken = default)
    {
        CheckOpened(connection);
        return Task.CompletedTask;
    }

    public void TransactionCommitted(DbTransaction transaction, TransactionEndEventData eventData) =>
        CheckCommitted(eventData.Context?.Database.GetDbConnection());

    public Task TransactionCommittedAsync(DbTransaction transaction, TransactionEndEventData eventData, CancellationToken cancellationToken = default)
    {
        CheckCommitted(eventData.Context?.Database.GetDbConnection());
        return Task.CompletedTask;
    }

    /// <summary>True when the file this connection has open is no longer the file at its path (deleted, renamed, replaced).</summary>
    public static bool HasMoved(SqliteConnection connection)
    {
        if (connection.Handle is not { } handle || !OperatingSystem.IsLinux() && !OperatingSystem.IsMacOS())
        {
            return false; // Windows cannot delete or replace a file another process has open.
        }

        var moved = 0;
        return NativeMethods.sqlite3_file_control(handle.DangerousGetHandle(), 0, HasMovedOperation, ref moved) == SqliteOk && moved != 0;
    }

    /// <summary>True when SQLite opened this connection read-only because the file was write-protected.</summary>
    public static bool IsReadOnly(SqliteConnection connection) =>
        connection.Handle is { } handle && SQLitePCL.raw.sqlite3_db_readonly(handle, "main") == 1;

    /// <summary>Whether this process may write the file (its permissions, or Linux's immutable attribute), without opening it.</summary>
    public static bool IsWritable(string path) =>
        !OperatingSystem.IsLinux() && !OperatingSystem.IsMacOS()
            ? !File.GetAttributes(path).HasFlag(FileAttributes.ReadOnly)
            : NativeMethods.access(path, WriteAccess) == 0;

    private const int WriteAccess = 2; // W_OK

    private static void CheckOpened(DbConnection connection)
    {
        if (connection is not SqliteConnection sqlite)
        {
            return;
        }

        if (HasMoved(sqlite))
        {
            SqliteConnection.ClearPool(sqlite);
            sqlite.Close();
            throw Moved();
        }

        if (IsReadOnly(sqlite))
        {
            // Closed, it is discarded instead of returning to the pool; the next call opens the file afresh.
            SqliteConnection.ClearPool(sqlite);
        }
    }

    private static void CheckCommitted(DbConnection? connection)
    {
        if (connection is SqliteConnection sqlite && HasMoved(sqlite))
        {
            // Committed into a file that is no longer at the path: not kept, so not acknowledged.
            SqliteConnection.ClearPool(sqlite);
            throw Moved();
        }
    }

    private static SqliteException Moved() =>
        new("The database file was moved or deleted while the service had it open.", DatabaseMovedCode);

    // Hand-written: SQLitePCLRaw 2.1 (what Microsoft.Data.Sqlite brings) does not expose sqlite3_file_control, and .NET
    // has no access(2): opening the file to try would release SQLite's POSIX locks when that handle closes.
    private static class NativeMethods
    {
        [DllImport("e_sqlite3", CallingConvention = CallingConvention.Cdecl)]
        public static extern int sqlite3_file_control(nint db, nint databaseName, int operation, ref int argument);

        [DllImport("libc", SetLastError = true)]
        public static extern int access([MarshalAs(UnmanagedType.LPUTF8Str)] string path, int mode);
    }
}
