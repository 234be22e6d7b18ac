namespace ProtocolBench.Lab.Runs;

/// <summary>Where a run writes its reports: the folder given, or results/&lt;command&gt;-&lt;yyyyMMdd-HHmmss&gt; in the repository.</summary>
public static class RunFolder
{
    public static string Create(string command, string? given, DateTimeOffset started)
    {
        var path = Path.GetFullPath(given ?? Path.Combine(ProjectPaths.RootOrCurrent, "results", $"{command}-{started.ToLocalTime():yyyyMMdd-HHmmss}"));
        Directory.CreateDirectory(path);
        return path;
    }
}
