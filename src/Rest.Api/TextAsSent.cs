using Microsoft.AspNetCore.Mvc.ModelBinding.Metadata;

namespace ProtocolBench.Rest.Api;

/// <summary>Query-string text reaches the domain as sent: empty or white space is not turned into null.</summary>
internal sealed class TextAsSent : IDisplayMetadataProvider
{
    public void CreateDisplayMetadata(DisplayMetadataProviderContext context)
    {
        if (context.Key.ModelType == typeof(string))
        {
            context.DisplayMetadata.ConvertEmptyStringToNull = false;
        }
    }
}
