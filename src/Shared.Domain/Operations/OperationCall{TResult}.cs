namespace ProtocolBench.Shared.Domain.Operations;

/// <summary>A call whose answer is a <typeparamref name="TResult"/>.</summary>
public sealed class OperationCall<TResult> : OperationCall
{
    internal OperationCall(Operation<TResult> operation, object?[] values)
        : base(operation, values)
    {
        Operation = operation;
    }

    public new Operation<TResult> Operation { get; }
}
