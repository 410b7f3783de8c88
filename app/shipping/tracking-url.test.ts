import { describe, expect, it } from "vitest";
import { isSafeTrackingUrl, trackingLinkTokenOf } from "./tracking-url";

describe("isSafeTrackingUrl", () => {
  it.each([
    "https://www.delhivery.com/track-v2/package/1234567890123",
    "https://www.bluedart.com/web/guest/trackdartresultthirdparty?trackFor=0&trackNo=71234567890",
    "HTTPS://WWW.DTDC.IN/trace.asp?strCnno=D12345678",
    "http://localhost:3000/track/1234",
    "http://127.0.0.1:41000/track/1234",
    "http://[::1]:8080/track/1234",
    "http://sandbox.localhost/track/1234",
  ])("accepts %s", (url) => {
    expect(isSafeTrackingUrl(url)).toBe(true);
  });

  it.each([
    ["a script", "javascript:alert(document.cookie)"],
    ["a script in capitals", "JavaScript:alert(1)"],
    ["a script behind a space", " javascript:alert(1)"],
    ["a script behind a tab", "java\tscript:alert(1)"],
    ["inline HTML", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="],
    ["a file", "file:///etc/passwd"],
    ["ftp", "ftp://example.in/1234"],
    ["plain http to the internet", "http://www.delhivery.com/track/1234"],
    ["http to a host that only starts like localhost", "http://localhost.example.com/track/1234"],
    ["http to a host that only starts like 127.0.0.1", "http://127.0.0.1.nip.io/track/1234"],
    ["a relative address", "/track/1234"],
    ["a scheme-relative address", "//www.delhivery.com/track/1234"],
    ["https without slashes", "https:www.delhivery.com/track/1234"],
    ["credentials that disguise the host", "https://www.delhivery.com@evil.example/track/1234"],
    ["a newline", "https://www.delhivery.com/track/1234\n"],
    ["nothing", ""],
    ["not an address", "track 1234"],
    ["an address of 2,049 characters", `https://example.in/${"a".repeat(2030)}`],
  ])("refuses %s", (_case, url) => {
    expect(isSafeTrackingUrl(url)).toBe(false);
  });
});

describe("trackingLinkTokenOf", () => {
  it("reads the token a link carries, and nothing from a link without one or with a malformed one", () => {
    expect(trackingLinkTokenOf("http://localhost:3000/track/1234567890123?token=Qx9_3kLmN0pRsTuV-wXyZa")).toBe("Qx9_3kLmN0pRsTuV-wXyZa");
    expect(trackingLinkTokenOf("https://dakiya.example/track/D12345678?lang=hi&token=Qx9_3kLmN0pRsTuV-wXyZa")).toBe("Qx9_3kLmN0pRsTuV-wXyZa");
    expect(trackingLinkTokenOf("http://localhost:3000/track/1234567890123")).toBeNull();
    expect(trackingLinkTokenOf("http://localhost:3000/track/1234567890123?token=short")).toBeNull();
    expect(trackingLinkTokenOf("http://localhost:3000/track/1234567890123?token=%3Cscript%3Ealert(1)%3C%2Fscript%3E")).toBeNull();
    expect(trackingLinkTokenOf("not a link")).toBeNull();
    expect(trackingLinkTokenOf(null)).toBeNull();
  });
});
