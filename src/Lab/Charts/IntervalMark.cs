namespace ProtocolBench.Lab.Charts;

/// <summary>One ratio with its interval (NaN bounds: none), drawn as a dot with whiskers.</summary>
public sealed record IntervalMark(string Name, string Colour, double Ratio, double Low, double High, string Text);
