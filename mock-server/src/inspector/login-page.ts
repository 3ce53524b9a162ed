/**
 * What a browser gets at GET / when the server has a control token and the browser no session (HTTP 401): a
 * form asking for the token, nothing about the server. The form sends `/?token=…`, which sets the session
 * cookie and redirects to the bare page (session.ts).
 */
export function loginPage(problem: 'wrong-token' | null): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>teamchat-kit inspector</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/__inspector/inspector.css">
</head>
<body class="login">
<main>
<h1>teamchat-kit inspector</h1>
<p>This server has a control token. Enter it to open the inspector in this browser (it is kept as a session cookie).</p>
${problem === 'wrong-token' ? '<p class="problem" role="alert">That is not the control token.</p>' : ''}
<form method="get" action="/">
<label>Control token <input type="password" name="token" autocomplete="off" required></label>
<button type="submit">Open</button>
</form>
</main>
</body>
</html>
`;
}
