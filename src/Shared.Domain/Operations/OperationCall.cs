namespace ProtocolBench.Shared.Domain.Operations;

/// <summary>
/// One call of an operation with its arguments, in the order of its <see cref="Operation.Parameters"/>: what a client
/// sends (<c>Operation.SearchAuthors.With("Author - 1", null)</c>). Made once and sent many times by the benchmark.
/// </summary>
public class OperationCall
{
    private protected OperationCall(Operation operation, object?[] values)
    {
        if (values.Length != operation.Parameters.Count)
        {
            throw new ArgumentException($"{operation} takes {operation.Parameters.Count} arguments, not {values.Length}.", nameof(values));
        }

        for (var i = 0; i < values.Length; i++)
        {
            if (!operation.Parameters[i].Accepts(values[i]))
            {
                throw new ArgumentException($"{operation.Name}'s {operation.Parameters[i].Name} is {operation.Parameters[i].Kind}, not {values[i]!.GetType().Name}.", nameof(values));
            }
        }

        Operation = operation;
        Values = values;
    }

    public Operation Operation { get; }

    /// <summary>The arguments in the order of the operation's parameters; null is a value left out.</summary>
    public IReadOnlyList<object?> Values { get; }

    /// <summary>The arguments by name, as the services' response budgets and the domain read them.</summary>
    public OperationArguments Arguments => new(this, static (call, name) => ((OperationCall)call!).Value(name));

    public object? Value(string name)
    {
        for (var i = 0; i < Values.Count; i++)
        {
            if (Operation.Parameters[i].Name == name)
            {
                return Values[i];
            }
        }

        return null;
    }

    public override string ToString() => $"{Operation.Name}({string.Join(", ", Values.Select(v => v ?? "null"))})";
}
