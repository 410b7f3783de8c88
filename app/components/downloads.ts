/**
 * A file the server makes on request (a CSV export, a PDF), saved by the browser: sent with POST so filters and
 * searches never sit in an address, through App Bridge's fetch (which adds the session token). False when the server
 * did not give it.
 */
export async function downloadFile(url: string, body: URLSearchParams | null, fileName: string): Promise<boolean> {
  try {
    const response = await fetch(url, body ? { method: "POST", body } : {});
    if (!response.ok) return false;
    const objectUrl = URL.createObjectURL(await response.blob());
    const anchor = document.createElement("a");
    anchor.href = objectUrl;
    anchor.download = fileName;
    anchor.click();
    setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
    return true;
  } catch {
    return false;
  }
}
