// The hall's passkey ceremonies. A form with data-ceremony="create" (make a passkey) or "get"
// (use one) asks the town for options (data-begin), hands them to the browser's passkey prompt,
// and sends the answer back (data-finish). The town keeps the challenge; this script keeps nothing.
// A form with data-confirm (adding a passkey to an account that has one) first asks the town there
// for one of the person's own passkeys and sends its answer to data-begin as "confirmation".
// data-asking, where given, is what the person reads while their device asks for the passkey.
"use strict";

(function () {
  function toBuffer(text) {
    const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out.buffer;
  }

  function toText(buffer) {
    let bin = "";
    for (const byte of new Uint8Array(buffer)) bin += String.fromCharCode(byte);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // Browsers that predate parse*FromJSON and toJSON get the same conversion by hand.
  function creationOptions(o) {
    if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(o);
    return Object.assign({}, o, {
      challenge: toBuffer(o.challenge),
      user: Object.assign({}, o.user, { id: toBuffer(o.user.id) }),
      excludeCredentials: (o.excludeCredentials || []).map((c) => Object.assign({}, c, { id: toBuffer(c.id) })),
    });
  }

  function requestOptions(o) {
    if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(o);
    return Object.assign({}, o, {
      challenge: toBuffer(o.challenge),
      allowCredentials: (o.allowCredentials || []).map((c) => Object.assign({}, c, { id: toBuffer(c.id) })),
    });
  }

  function answer(credential) {
    if (typeof credential.toJSON === "function") return credential.toJSON();
    const r = credential.response;
    const out = {
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || null,
      clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
      response: { clientDataJSON: toText(r.clientDataJSON) },
    };
    if (r.attestationObject) {
      out.response.attestationObject = toText(r.attestationObject);
      out.response.transports = r.getTransports ? r.getTransports() : [];
    } else {
      out.response.authenticatorData = toText(r.authenticatorData);
      out.response.signature = toText(r.signature);
      out.response.userHandle = r.userHandle ? toText(r.userHandle) : null;
    }
    return out;
  }

  function explain(error, kind) {
    switch (error && error.name) {
      case "NotAllowedError":
      case "AbortError":
        return "The passkey prompt was closed, timed out, or could not verify you. Nothing changed; press the button to try again.";
      case "InvalidStateError":
        return kind === "create"
          ? "This device already keeps a passkey for this account. Use another device, or sign in with the passkey you have."
          : "This passkey cannot be used right now. Nothing changed; press the button to try again.";
      case "SecurityError":
        return "Passkeys work only at this town's own address. Open the hall from the link the town gave you and try again.";
      case "NotSupportedError":
        return "This device cannot make the kind of passkey the town needs: one that asks for your fingerprint, face, PIN or screen lock.";
      default:
        return "The passkey prompt failed (" + ((error && error.message) || "no reason given") + "). Nothing changed; press the button to try again.";
    }
  }

  async function post(url, body, token) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": token },
      body: JSON.stringify(body),
    });
    try {
      return await response.json();
    } catch (e) {
      return { ok: false, say: "The town answered in a way the hall did not expect (HTTP " + response.status + "). Reload the page and try again." };
    }
  }

  function show(form, text, tone) {
    const say = form.querySelector(".say");
    say.textContent = text;
    say.className = "say" + (tone ? " say-" + tone : "");
    say.setAttribute("role", tone === "bad" ? "alert" : "status");
  }

  const able = Boolean(window.PublicKeyCredential && navigator.credentials);

  async function ceremony(form) {
    const kind = form.dataset.ceremony;
    const button = form.querySelector("button[type=submit]");
    if (form.getAttribute("aria-busy") === "true") return;
    const fields = {};
    for (const [key, value] of new FormData(form)) if (key !== "csrfmiddlewaretoken") fields[key] = value;
    const token = form.querySelector("input[name=csrfmiddlewaretoken]").value;
    form.setAttribute("aria-busy", "true");
    button.disabled = true;
    try {
      show(form, "Asking the town…");
      if (form.dataset.confirm) {
        const asked = await post(form.dataset.confirm, fields, token);
        if (!asked.ok) return show(form, asked.say, "bad");
        show(form, "Confirm with a passkey you already have: follow your device's prompt…");
        let confirmation;
        try {
          confirmation = await navigator.credentials.get({ publicKey: requestOptions(asked.options) });
        } catch (error) {
          return show(form, explain(error, "get"), "bad");
        }
        show(form, "Checking your passkey…");
        fields.confirmation = answer(confirmation);
      }
      const begun = await post(form.dataset.begin, fields, token);
      if (!begun.ok) return show(form, begun.say, "bad");
      show(
        form,
        form.dataset.asking ||
          (kind === "create" ? "Follow your device's prompt to make the passkey…" : "Follow your device's prompt to use your passkey…")
      );
      let credential;
      try {
        credential =
          kind === "create"
            ? await navigator.credentials.create({ publicKey: creationOptions(begun.options) })
            : await navigator.credentials.get({ publicKey: requestOptions(begun.options) });
      } catch (error) {
        return show(form, explain(error, kind), "bad");
      }
      show(form, "Checking your passkey…");
      // With the mark of whom the page was drawn for (hall/drawn.py), as the begin carried it: another tab
      // may have signed someone else in while the device asked for the passkey.
      const finish = { credential: answer(credential) };
      if (fields.drawn_for) finish.drawn_for = fields.drawn_for;
      const done = await post(form.dataset.finish, finish, token);
      if (!done.ok) return show(form, done.say, "bad");
      show(form, "Done. Taking you on…", "good");
      window.location.assign(done.next);
    } catch (error) {
      show(form, "The town could not be reached. Check the connection and try again.", "bad");
    } finally {
      form.removeAttribute("aria-busy");
      button.disabled = false;
    }
  }

  // The page loads this script in its head and listens on the document, so a press that comes
  // before the page has finished loading is already a ceremony: the form has no action of its
  // own, and submitted natively it would only reload the page and drop the press.
  document.addEventListener("submit", function (event) {
    const form = event.target.closest("form[data-ceremony]");
    if (!form) return;
    event.preventDefault();
    if (able) ceremony(form);
  });

  if (!able) {
    document.addEventListener("DOMContentLoaded", function () {
      document.querySelectorAll("form[data-ceremony]").forEach(function (form) {
        show(form, "This browser cannot use passkeys. Open the hall in a current browser (Chrome, Edge, Firefox or Safari) to go on.", "bad");
        form.querySelector("button[type=submit]").disabled = true;
      });
    });
  }
})();
