import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.conn.ssl.NoopHostnameVerifier;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;

/**
 * JMeter's HTTP sampler stack (Apache HttpClient 4 over the JDK's TLS, trusting any certificate as JMeter does) calling
 * GET URL back to back: "new" sends Connection: close, so every request opens its own connection (and TLS handshake);
 * "reuse" keeps one. Every answer must hold Int32 max. Prints the median and quartiles of the times after the warm-up.
 * Usage: HttpProbe URL new|reuse WARMUP COUNT
 */
public final class HttpProbe {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        boolean fresh = args[1].equals("new");
        int warmup = Integer.parseInt(args[2]);
        int count = Integer.parseInt(args[3]);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, new TrustManager[] {new TrustAll()}, null);
        double[] ms = new double[count];
        try (CloseableHttpClient client = HttpClients.custom()
                .setSSLSocketFactory(new SSLConnectionSocketFactory(tls, NoopHostnameVerifier.INSTANCE)).build()) {
            for (int i = -warmup; i < count; i++) {
                long start = System.nanoTime();
                HttpGet get = new HttpGet(url);
                if (fresh) {
                    get.setHeader("Connection", "close");
                }
                try (CloseableHttpResponse response = client.execute(get)) {
                    String body = EntityUtils.toString(response.getEntity());
                    if (response.getStatusLine().getStatusCode() != 200 || !body.contains("2147483647")) {
                        throw new IllegalStateException("unexpected answer: " + response.getStatusLine() + " " + body);
                    }
                }
                if (i >= 0) {
                    ms[i] = (System.nanoTime() - start) / 1e6;
                }
            }
        }
        Arrays.sort(ms);
        System.out.printf(Locale.ROOT, "HttpClient 4  %-45s %-5s median %.3f ms (quartiles %.3f–%.3f, n=%d)%n",
            url, args[1], ms[count / 2], ms[count / 4], ms[3 * count / 4], count);
    }

    /** JMeter's default: any server certificate is accepted. */
    private static final class TrustAll implements X509TrustManager {
        public void checkClientTrusted(X509Certificate[] chain, String type) {}
        public void checkServerTrusted(X509Certificate[] chain, String type) {}
        public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
    }
}
