// Keeping a propped-up phone awake during a game (issue #20, item 7).
//
// - Where the page is a secure context (the box on loopback, or behind HTTPS) and the browser
//   has the Screen Wake Lock API, the page holds a "screen" wake lock while a game is in play,
//   and takes it again when the page comes back into view (the browser drops it when hidden).
// - Elsewhere (a phone on the LAN over plain HTTP: no Wake Lock there) it plays a muted,
//   inline, looping video, as NoSleep.js does: the box's own /static/awake.webm (or .mp4),
//   never fetched from anywhere else. A browser that will not play it before a tap is asked
//   again at the next tap on the page.
// - #wake-status says which is active (data-method "wakelock", "video" or "off") in words.
// - "Keep the screen on" in Settings turns both off.

import { $, setting, wireSetting } from "./common.js";

const wake = { wanted: false, lock: null, video: null, method: "off", asking: false };

function say(method, text) {
  wake.method = method;
  const status = $("#wake-status");
  status.dataset.method = method;
  status.textContent = text;
}

function reason() {
  return setting("awake", true) ? "Screen may sleep: no game in play."
    : "Screen may sleep: turned off here.";
}

function video() {
  if (!wake.video) {
    const node = document.createElement("video");
    node.muted = true;
    node.loop = true;
    node.playsInline = true;
    node.setAttribute("muted", "");
    node.setAttribute("playsinline", "");
    node.setAttribute("aria-hidden", "true");
    node.title = "Keeps the screen on";
    for (const [file, type] of [["awake.webm", "video/webm"], ["awake.mp4", "video/mp4"]]) {
      const source = document.createElement("source");
      source.src = `/static/${file}`;
      source.type = type;
      node.append(source);
    }
    wake.video = node;
  }
  return wake.video;
}

async function playVideo(why) {
  try {
    await video().play();
    if (wake.wanted) {
      say("video", `Screen stays on: a silent looping video (${why}).`);
    } else {
      wake.video.pause();
    }
  } catch {
    say("off", "Screen may sleep: tap the page once to keep it on.");
  }
}

async function hold() {
  if (wake.asking || !wake.wanted || document.visibilityState !== "visible") return;
  if (wake.method !== "off") return;
  wake.asking = true;
  try {
    let why = "this address has no Wake Lock over plain HTTP";
    if (window.isSecureContext && !navigator.wakeLock?.request) why = "this browser has no Wake Lock";
    if (window.isSecureContext && navigator.wakeLock?.request) {
      try {
        const lock = await navigator.wakeLock.request("screen");
        wake.lock = lock;
        lock.addEventListener("release", () => {
          if (wake.lock === lock) {
            wake.lock = null;
            say("off", reason());
          }
        });
        if (!wake.wanted) { release(); return; }
        say("wakelock", "Screen stays on (Wake Lock).");
        return;
      } catch {
        why = "the browser refused a Wake Lock";  // battery saver, no permission: video works
      }
    }
    await playVideo(why);
  } finally {
    wake.asking = false;
  }
}

function release() {
  if (wake.lock) {
    const lock = wake.lock;
    wake.lock = null;
    lock.release().catch(() => {});
  }
  if (wake.video && !wake.video.paused) wake.video.pause();
  say("off", reason());
}

/** Keep the screen on while `inGame` (and the setting allows it); let it sleep otherwise. */
export function keepAwake(inGame) {
  const wanted = Boolean(inGame) && setting("awake", true);
  if (wanted === wake.wanted && (!wanted || wake.method !== "off")) return;
  wake.wanted = wanted;
  if (wanted) hold(); else release();
}

export function wireAwake(inGame) {
  wireSetting("#wake-on", "awake", true, () => keepAwake(inGame()));
  say("off", reason());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && wake.wanted && wake.method !== "video") {
      wake.method = "off";
      hold();
    }
  });
  // A browser that would not play before a gesture: this tap is one.
  document.addEventListener("pointerdown", () => { if (wake.wanted) hold(); }, true);
}
