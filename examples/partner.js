// The partner page's own script (a file, not inline: the page's Content-Security-Policy allows no inline script).
document.addEventListener('qt-task-click', (event) => console.log('task clicked', event.detail.id));
// A partner page renews the widget token here: its own server trades the partner key for a fresh one
// (PUT /api/user/widget-token) and the page sets it on the widgets' token attribute.
document.addEventListener('qt-session-expired', () => console.log('session expired'));
