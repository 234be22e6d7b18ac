namespace ProtocolBench.Shared.Domain;

/// <summary>The same limits on every protocol (docs/limits-and-errors.md).</summary>
public static class Limits
{
    public const int CloneTextMaxLength = 1_024;
    public const int CloneCountMax = 100_000;
    public const int CloneOutputMaxChars = 1_048_576;
    public const int IntsCountMax = 100_000;
    public const int SearchPhraseMaxLength = 100;
    public const int SearchLimitMax = 5_000;
    public const int ListTakeMax = 1_000;
    public const int ListTakeDefault = 100;
    public const int AuthorNameMaxLength = 200;
    public const int AuthorCountryMaxLength = 100;
    public const int BookTitleMaxLength = 300;
    public const int RequestBodyMaxBytes = 1_048_576;
    public const int ShapeIdMax = 1_000_000;
    public const int ShapeCountMax = 100;

    /// <summary>
    /// The deepest payload shape's eight levels under its query field: every field of it can be selected and no more
    /// (was 5 before the shapes; the authors need 3).
    /// </summary>
    public const int GraphQLMaxDepth = 9;
}
