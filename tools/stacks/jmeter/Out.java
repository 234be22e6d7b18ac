/** The lines to the harness, each flushed. */
final class Out {
    static synchronized void line(String text) {
        System.out.println(text.replace('\n', ' '));
        System.out.flush();
    }
}
