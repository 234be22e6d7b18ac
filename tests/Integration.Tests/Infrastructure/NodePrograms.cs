namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// Node.js programs (clients ProtocolBench did not write: graphql-http's audit, @microsoft/signalr, and the gRPC example's
/// @grpc/grpc-js): their packages installed once with npm ci from the committed lock file, then run with a time limit.
/// </summary>
public static class NodePrograms
{
    /// <summary>The folder <paramref name="path"/> (from the project's root), with its node_modules installed.</summary>
    public static async Task<string> PrepareAsync(string path, CancellationToken cancellationToken)
    {
        var folder = Path.Combine(ProjectPaths.RootOrCurrent, path);
        if (!Directory.Exists(Path.Combine(folder, "node_modules")))
        {
            var (installed, output, error) = await RunAsync("npm", ["ci", "--no-audit", "--no-fund"], folder, TimeSpan.FromMinutes(3), cancellationToken);
            Assert.True(installed == 0, $"npm ci in {folder} failed:\n{output}{error}");
        }

        return folder;
    }

    /// <summary>
    /// Runs <paramref name="program"/> in the folder <paramref name="path"/> against <paramref name="address"/> with
    /// <paramref name="calls"/> written to a file, and returns its one JSON line per call by the call's name; asserts it
    /// exited 0 and answered every call.
    /// </summary>
    public static async Task<Dictionary<string, JsonNode>> CallAsync(
        string path, string program, string address, IReadOnlyList<object> calls, string[] options, CancellationToken cancellationToken)
    {
        var folder = await PrepareAsync(path, cancellationToken);
        var file = Path.Combine(Path.GetTempPath(), $"protocolbench-calls-{Guid.NewGuid():N}.json");
        try
        {
            await File.WriteAllTextAsync(file, JsonSerializer.Serialize(calls), cancellationToken);
            var (exit, output, error) = await RunAsync(
                "node", [program, address.TrimEnd('/'), file, .. options], folder, TimeSpan.FromMinutes(2), cancellationToken);
            TestContext.Current.TestOutputHelper?.WriteLine(output + error);
            Assert.True(exit == 0, $"{program} failed ({exit}):\n{output}{error}");
            var results = output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(line => JsonNode.Parse(line)!)
                .ToDictionary(r => r["name"]!.GetValue<string>());
            Assert.Equal(calls.Count, results.Count);
            return results;
        }
        finally
        {
            File.Delete(file);
        }
    }

    /// <summary>Runs <paramref name="program"/> in <paramref name="folder"/>; killed and a <see cref="TimeoutException"/> after <paramref name="timeout"/>.</summary>
    public static async Task<(int ExitCode, string Output, string Error)> RunAsync(
        string program, string[] arguments, string folder, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo(program, arguments) { WorkingDirectory = folder, RedirectStandardOutput = true, RedirectStandardError = true };
        Process process;
        try
        {
            process = Process.Start(info)!;
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            // A machine with only the .NET SDK skips these tests with the line that installs what they need; CI fails on the skip.
            Assert.Skip($"{program} is not installed ({e.Message}): apt-get install nodejs npm");
            throw;
        }

        using (process)
        {
            var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
            var error = process.StandardError.ReadToEndAsync(cancellationToken);
            using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            deadline.CancelAfter(timeout);
            try
            {
                await process.WaitForExitAsync(deadline.Token);
            }
            catch (OperationCanceledException)
            {
                process.Kill(entireProcessTree: true);
                throw new TimeoutException($"{program} {string.Join(' ', arguments)} did not finish within {timeout.TotalSeconds:F0} s.");
            }

            return (process.ExitCode, await output, await error);
        }
    }
}
