namespace ProtocolBench.LoadTests.Reports;

/// <summary>The setup table's rows of the virtual-user study: what was sent, and how each figure was read, by whoever drove the users.</summary>
internal static class UserSetup
{
    public static IEnumerable<(string, string)> Rows(RunReport r)
    {
        var s = r.Settings;
        var locust = s.UserDriver is not null;
        var pacing = s.UserIntervalSeconds is { } interval
            ? $"one every {interval:0.###} s (constant pacing, --user-interval; each user's first after a random share of one interval, so the users' requests spread over it)"
            : "back to back, no think time";
        yield return ("Virtual users", $"{string.Join(", ", s.Users)} users × {s.RequestsPerUser} requests each, {pacing}; scenarios {string.Join(", ", s.UserScenarios)}");
        if (s.UserDriver is { } driver)
        {
            yield return ("Client", "Locust's users (--engine locust; see \"Driven by\"); this process checks their answers and the database");
            yield return ("Driven by", $"{driver} (--engine locust): each virtual user a Locust user, a greenlet on a worker; REST and GraphQL over " +
                                       "HTTP/1.1 by Python's http.client, gRPC by grpcio in its gevent mode, SignalR's hub by websocket-client (JSON or " +
                                       "MessagePack); each sends the bytes this project's client sends and times its request to the answer decoded, in µs; " +
                                       "a worker's answers equal to its first count as that one, which this process reads and checks as it checks every " +
                                       "other answer and every create ([method](../../docs/load-studies.md#locust))");
        }

        yield return ("Warm-up", $"before each cell, every user sends at least {s.WarmupPerUser} request(s) and the users at least {s.WarmupTotal} in all " +
                                 (s.Quick ? "" : "in each of two passes, the service quiet after each ") +
                                 "(opening their connections, letting the service compile its code at full tier); excluded from every figure" +
                                 (locust ? "; the users start their requests together once every user of every worker is warm" : ""));
        yield return ("Connections per cell", r.Run.Conditions.Connections == ConnectionPolicy.New
            ? "a new one for every request (conns: how many the cell opened)"
            : locust
                ? $"HTTP/1.1 and the hub: one per user; gRPC: a channel per {s.UsersPerHttp2Connection} users of a worker"
                : $"HTTP/1.1: one per user; HTTP/2: one per {s.UsersPerHttp2Connection} users (a client, hence a connection, each)");
        yield return ("Throughput", locust
            ? "successful requests ÷ the longest of the workers' own times from the start of the measured requests to their last answer"
            : "successful requests ÷ wall time from the moment all users start to the moment the last one ends");
        yield return ("Latency", locust
            ? "successful requests only; every request's time as its worker measured it (µs), all of them, percentiles by nearest rank (not Locust's rounded statistics)"
            : "successful requests only; HdrHistogram (µs, 3 significant digits), one per user, merged with `Add`");
        yield return ("Server cost", "per request sent: the service's CPU time (user + system) and allocations by its runtime's own account " +
                                     "(System.Runtime meter over EventPipe), read with the service idle just before the users start and after " +
                                     $"the last one ends; client CPU: {(locust ? "the Locust master's and workers' processes" : "this process")} over the same requests " +
                                     "([method](../../docs/methodology.md#what-an-operation-costs-the-service)). " + CpuAccounts.Check(r.Users.Select(c => c.Cost)));
    }
}
