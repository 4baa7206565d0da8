// Notifications on this device (hall/push.py): subscribe with the browser's push service using the
// town's VAPID key, and hand the subscription to the hall; or take it back.
(() => {
  const box = document.getElementById("push");
  if (!box) return;
  const say = (text) => { document.getElementById("push-say").textContent = text; };
  const token = box.querySelector("input[name=csrfmiddlewaretoken]").value;
  const key = () => {
    const s = box.dataset.key.replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(s + "=".repeat((4 - (s.length % 4)) % 4));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  };
  async function post(url, body) {
    const r = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": token },
      body: JSON.stringify(body),
    });
    return r.json();
  }
  async function registration() {
    return navigator.serviceWorker.register(box.dataset.worker, { scope: "/hall/" });
  }
  document.getElementById("push-on").addEventListener("click", async () => {
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
      say("This browser cannot show notifications from the hall.");
      return;
    }
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        say("Notifications are blocked for the hall in this browser's settings.");
        return;
      }
      const reg = await registration();
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key() });
      const answer = await post(box.dataset.subscribe, { subscription: sub.toJSON() });
      say(answer.say);
    } catch (error) {
      say("This device could not turn notifications on: " + error.message);
    }
  });
  document.getElementById("push-off").addEventListener("click", async () => {
    try {
      const reg = await navigator.serviceWorker.getRegistration("/hall/");
      const sub = reg && (await reg.pushManager.getSubscription());
      if (!sub) { say("Notifications were not on for this device."); return; }
      await sub.unsubscribe();
      say((await post(box.dataset.unsubscribe, { endpoint: sub.endpoint })).say);
    } catch (error) {
      say("This device could not turn notifications off: " + error.message);
    }
  });
})();
