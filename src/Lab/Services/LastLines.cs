namespace ProtocolBench.Lab.Services;

/// <summary>The last lines a child process printed, kept for the message that says why it failed; written from its output's threads.</summary>
public sealed class LastLines(int count)
{
    private readonly Queue<string> _lines = new();

    public void Add(string line)
    {
        lock (_lines)
        {
            _lines.Enqueue(line);
            while (_lines.Count > count)
            {
                _lines.Dequeue();
            }
        }
    }

    public override string ToString()
    {
        lock (_lines)
        {
            return string.Join(Environment.NewLine, _lines);
        }
    }
}
