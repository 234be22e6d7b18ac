using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Shared.Domain.Operations;

/// <summary>An operation whose answer is a <typeparamref name="TResult"/>, with the domain call every service makes for it.</summary>
public sealed class Operation<TResult> : Operation
{
    private readonly Func<IDomainScope, OperationArguments, CancellationToken, Task<TResult>> _run;

    internal Operation(
        string name,
        Parameter[] parameters,
        Func<IDomainScope, OperationArguments, CancellationToken, Task<TResult>> run,
        string[]? sizedBy = null,
        Func<OperationArguments, PayloadFiles, long>? mostAnswered = null,
        bool isStreamed = false)
        : base(name, parameters, sizedBy ?? [], mostAnswered ?? ((_, _) => 0), isStreamed)
    {
        _run = run;
    }

    public override Type ResultType => typeof(TResult);

    /// <summary>A call with these arguments, in the order of <see cref="Operation.Parameters"/>.</summary>
    public OperationCall<TResult> With(params object?[] arguments) => new(this, arguments);

    /// <summary>The operation in this process, without any protocol: the domain call behind every service's endpoint.</summary>
    public Task<TResult> RunAsync(IDomainScope scope, OperationCall<TResult> call, CancellationToken cancellationToken) =>
        _run(scope, call.Arguments, cancellationToken);
}
