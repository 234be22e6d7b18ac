using System.Text.RegularExpressions;

namespace ProtocolBench.Lab.Network;

/// <summary>
/// The link between the client and the services (--network): loopback, or a link of the given rate, delay, jitter and
/// loss, shaped by the kernel's qdiscs on a veth pair to the services' own network namespace (<see cref="ShapedLink"/>).
/// The rate applies to each direction.
/// </summary>
public sealed partial record NetworkProfile(string Name, long? BitsPerSecond = null, double DelayMs = 0, double JitterMs = 0, double LossPercent = 0)
{
    public static readonly NetworkProfile Loopback = new("loopback");

    /// <summary>The named profiles, as --help lists them.</summary>
    public static readonly IReadOnlyList<NetworkProfile> Named =
    [
        Loopback,
        new("lan-1g", 1_000_000_000, DelayMs: 0.1),
        new("lan-100m", 100_000_000, DelayMs: 0.2),
        new("wan", 50_000_000, DelayMs: 20, JitterMs: 2, LossPercent: 0.1),
    ];

    public bool IsLoopback => BitsPerSecond is null && DelayMs == 0 && JitterMs == 0 && LossPercent == 0;

    /// <summary>Whether the profile asks for delay, jitter or loss: netem, or the NFQUEUE delayer where the kernel has no netem.</summary>
    public bool DelaysOrLoses => DelayMs > 0 || JitterMs > 0 || LossPercent > 0;

    /// <summary>netem's default queue, in packets.</summary>
    public const int NetemDefaultLimit = 1000;

    /// <summary>
    /// How many packets the delay holds at most, each way. Every packet is held for the delay, so at a known rate the queue
    /// must hold what the link carries in that time, or it drops packets the profile never asked to lose: twice the rate
    /// × (delay + jitter) in 1,500-byte packets, at least netem's default of 1,000 (rate=1gbit,delay=40ms carries about
    /// 3,333 packets in its 40 ms).
    /// </summary>
    public long QueueLimit => BitsPerSecond is { } rate
        ? Math.Max(NetemDefaultLimit, (long)Math.Ceiling(2 * rate / 8.0 / 1500 * (DelayMs + JitterMs) / 1000))
        : NetemDefaultLimit;

    /// <summary>
    /// What follows "tc qdisc add ... " for this profile's delay, jitter and loss: netem, its queue (<see cref="QueueLimit"/>)
    /// at a known rate, then "delay D J" and "loss L%".
    /// </summary>
    public IReadOnlyList<string> NetemArguments()
    {
        var arguments = new List<string> { "netem" };
        if (BitsPerSecond is not null)
        {
            arguments.AddRange(["limit", QueueLimit.ToString(CultureInfo.InvariantCulture)]);
        }

        if (DelayMs > 0 || JitterMs > 0)
        {
            arguments.AddRange(["delay", Microseconds(DelayMs)]);
            if (JitterMs > 0)
            {
                arguments.Add(Microseconds(JitterMs));
            }
        }

        if (LossPercent > 0)
        {
            arguments.AddRange(["loss", LossPercent.ToString("0.####", CultureInfo.InvariantCulture) + "%"]);
        }

        return arguments;
    }

    private static string Microseconds(double ms) => (ms * 1000).ToString("0", CultureInfo.InvariantCulture) + "us";

    /// <summary>"100 Mbit/s each way, 0.2 ms delay".</summary>
    public string Describe()
    {
        if (IsLoopback)
        {
            return "loopback (127.0.0.1), nothing shaped";
        }

        var parts = new List<string>();
        if (BitsPerSecond is { } rate)
        {
            parts.Add($"{Rate(rate)} each way");
        }

        if (DelayMs > 0)
        {
            parts.Add($"{DelayMs.ToString("0.###", CultureInfo.InvariantCulture)} ms delay each way" +
                      (JitterMs > 0 ? $" ± {JitterMs.ToString("0.###", CultureInfo.InvariantCulture)} ms" : ""));
        }

        if (LossPercent > 0)
        {
            parts.Add($"{LossPercent.ToString("0.###", CultureInfo.InvariantCulture)} % loss");
        }

        return string.Join(", ", parts);
    }

    /// <summary>A named profile or rate=R,delay=D,jitter=J,loss=L (each optional: rate=100mbit,delay=20ms,loss=0.1%).</summary>
    public static NetworkProfile Parse(string value)
    {
        var text = value.Trim().ToLowerInvariant();
        if (Named.FirstOrDefault(p => p.Name == text) is { } named)
        {
            return named;
        }

        if (!text.Contains('='))
        {
            throw new FormatException($"'{value}' is not a network: {string.Join(", ", Named.Select(p => p.Name))}, or rate=..,delay=..,jitter=..,loss=..");
        }

        var profile = new NetworkProfile(text);
        foreach (var part in text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var (key, setting) = part.Split('=', 2) is [var k, var v] ? (k.Trim(), v.Trim()) : (part, "");
            profile = key switch
            {
                "rate" => profile with { BitsPerSecond = ParseRate(setting) },
                "delay" => profile with { DelayMs = ParseMilliseconds(setting, "delay") },
                "jitter" => profile with { JitterMs = ParseMilliseconds(setting, "jitter") },
                "loss" => profile with { LossPercent = ParseLoss(setting) },
                _ => throw new FormatException($"'{key}' is not a link setting: rate, delay, jitter or loss"),
            };
        }

        return profile.IsLoopback ? throw new FormatException("a custom network needs a rate, delay, jitter or loss") : profile;
    }

    /// <summary>"100mbit", "1gbit", "512kbit" (tc's units; bit, kbit, mbit, gbit; 1k = 1000).</summary>
    public static long ParseRate(string value)
    {
        var match = RateSyntax().Match(value);
        if (!match.Success)
        {
            throw new FormatException($"rate '{value}' is not a rate such as 100mbit or 1gbit");
        }

        var number = double.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture);
        var bits = number * match.Groups[2].Value switch { "k" => 1e3, "m" => 1e6, "g" => 1e9, _ => 1 };
        return bits is >= 8_000 and <= 100e9 ? (long)bits : throw new FormatException($"rate '{value}' must be between 8kbit and 100gbit");
    }

    /// <summary>As tc writes it: 100mbit, 1gbit.</summary>
    public static string TcRate(long bitsPerSecond) =>
        bitsPerSecond % 1_000_000_000 == 0 ? $"{bitsPerSecond / 1_000_000_000}gbit"
        : bitsPerSecond % 1_000_000 == 0 ? $"{bitsPerSecond / 1_000_000}mbit"
        : bitsPerSecond % 1_000 == 0 ? $"{bitsPerSecond / 1_000}kbit"
        : $"{bitsPerSecond}bit";

    /// <summary>"100 Mbit/s", "1 Gbit/s", "35.2 Mbit/s".</summary>
    public static string Rate(long bitsPerSecond) =>
        bitsPerSecond >= 1_000_000_000 ? $"{Number(bitsPerSecond / 1e9)} Gbit/s"
        : bitsPerSecond >= 1_000_000 ? $"{Number(bitsPerSecond / 1e6)} Mbit/s"
        : $"{Number(bitsPerSecond / 1e3)} kbit/s";

    private static string Number(double value) => value.ToString(value >= 100 ? "0" : value >= 10 ? "0.#" : "0.##", CultureInfo.InvariantCulture);

    private static double ParseMilliseconds(string value, string what)
    {
        var match = TimeSyntax().Match(value);
        if (!match.Success)
        {
            throw new FormatException($"{what} '{value}' is not a time such as 20ms or 500us");
        }

        var number = double.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture);
        var ms = number * match.Groups[2].Value switch { "us" => 1e-3, "s" => 1e3, _ => 1 };
        return ms is >= 0 and <= 10_000 ? ms : throw new FormatException($"{what} '{value}' must be between 0 and 10s");
    }

    private static double ParseLoss(string value)
    {
        var number = double.TryParse(value.TrimEnd('%'), NumberStyles.Float, CultureInfo.InvariantCulture, out var n) ? n : double.NaN;
        return number is >= 0 and <= 100 ? number : throw new FormatException($"loss '{value}' is not a percentage such as 0.1%");
    }

    [GeneratedRegex(@"^(\d+(?:\.\d+)?)\s*([kmg]?)bit$")]
    private static partial Regex RateSyntax();

    [GeneratedRegex(@"^(\d+(?:\.\d+)?)\s*(us|ms|s)$")]
    private static partial Regex TimeSyntax();

    public override string ToString() => Name;
}
