using System.Text.RegularExpressions;

namespace ProtocolBench.Lab.CommandLine;

/// <summary>
/// The command a report says was run, as one line a reader can paste into a POSIX shell: arguments quoted where the
/// shell would split or expand them, and any password in a connection string masked (reports are published).
/// </summary>
public static partial class ShellCommand
{
    public static string Of(string project, IReadOnlyList<string> args) =>
        Line(["dotnet", "run", "-c", "Release", "--project", project, .. args.Count > 0 ? ["--", .. args] : Array.Empty<string>()]);

    /// <summary>Any command's words as one line for a shell (e.g. the driver check's wrk, hey and h2load).</summary>
    public static string Line(IEnumerable<string> words) => string.Join(' ', words.Select(w => Quote(Mask(w))));

    private static string Mask(string argument) => Password().Replace(argument, "${key}=***");

    private static string Quote(string argument) =>
        argument.Length > 0 && argument.All(c => char.IsAsciiLetterOrDigit(c) || "-_./:=,@+%".Contains(c))
            ? argument
            : $"'{argument.Replace("'", "'\\''")}'";

    [GeneratedRegex(@"(?<key>\b(?:password|pwd))\s*=[^;]*", RegexOptions.IgnoreCase)]
    private static partial Regex Password();
}
