using ProtocolBench.Shared.Domain.Data;
using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Shared.Domain.Operations;

/// <summary>What an operation runs on in process (<see cref="Operation{TResult}.RunAsync"/>): the loaded files and a database context for the call.</summary>
public interface IDomainScope
{
    PayloadFiles Files { get; }

    /// <summary>Runs <paramref name="work"/> on a context of its own, as a request scope has one.</summary>
    Task<T> InDatabaseAsync<T>(Func<LibraryDbContext, Task<T>> work, CancellationToken cancellationToken);
}
