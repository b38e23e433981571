// Pages outside a session: log in, sign up, forgot and reset password, accept an invitation.
import { useState, type FormEvent, type ReactNode } from 'react';
import { api, call } from '../api/client';
import { Link, navigate } from '../router';
import { signIn } from '../session';
import { ErrorNotice, Field, Notice } from '../ui/components';
import { useAction } from '../ui/hooks';

function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="auth" id="main">
      <div className="auth-card">
        <p className="brand brand-large">Marketplace</p>
        <h1>{title}</h1>
        {children}
      </div>
      {footer && <p className="auth-footer">{footer}</p>}
    </main>
  );
}

export function LoginPage({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await action.run(async () => {
      await signIn(email, password);
      return true;
    });
    if (ok) {
      await onSignedIn();
      navigate('/', { replace: true });
    }
  };
  return (
    <AuthCard
      title="Log in to your account"
      footer={
        <>
          No account? <Link to="/signup">Sign up</Link>
        </>
      }
    >
      <form onSubmit={submit} className="form">
        <ErrorNotice error={action.error} />
        <Field label="Email" name="email" type="email" value={email} onChange={setEmail} autoComplete="username" required error={action.error} />
        <Field label="Password" name="password" type="password" value={password} onChange={setPassword} autoComplete="current-password" required error={action.error} />
        <button type="submit" className="button button-primary button-wide" disabled={action.busy}>
          Log in
        </button>
        <p>
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
      </form>
    </AuthCard>
  );
}

export function SignupPage({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [workspaceName, setWorkspaceName] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await action.run(async () => {
      await call(api.POST('/manage/v1/signup', { body: { email, password, workspace_name: workspaceName } }));
      await signIn(email, password);
      return true;
    });
    if (ok) {
      await onSignedIn();
      navigate('/marketplaces/new', { replace: true });
    }
  };
  return (
    <AuthCard
      title="Create your account"
      footer={
        <>
          Have an account? <Link to="/login">Log in</Link>
        </>
      }
    >
      <form onSubmit={submit} className="form">
        <ErrorNotice error={action.error} />
        <Field label="Email" name="email" type="email" value={email} onChange={setEmail} autoComplete="username" required error={action.error} />
        <Field label="Password" name="password" type="password" value={password} onChange={setPassword} autoComplete="new-password" hint="At least 10 characters." required error={action.error} />
        <Field label="Workspace name" name="workspace_name" value={workspaceName} onChange={setWorkspaceName} hint="Your company or team." required error={action.error} />
        <button type="submit" className="button button-primary button-wide" disabled={action.busy}>
          Create account
        </button>
      </form>
    </AuthCard>
  );
}

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await action.run(async () => {
      await call(api.POST('/manage/v1/password_resets', { body: { email } }));
      return true;
    });
    if (ok) setSent(true);
  };
  return (
    <AuthCard title="Reset your password" footer={<Link to="/login">Back to log in</Link>}>
      {sent ? (
        <Notice kind="success">If an account uses that address, we sent it a link to choose a new password.</Notice>
      ) : (
        <form onSubmit={submit} className="form">
          <ErrorNotice error={action.error} />
          <Field label="Email" name="email" type="email" value={email} onChange={setEmail} autoComplete="username" required error={action.error} />
          <button type="submit" className="button button-primary button-wide" disabled={action.busy}>
            Send reset link
          </button>
        </form>
      )}
    </AuthCard>
  );
}

/** The emailed link carries its token in the fragment (#token=…), which browsers never send. */
export function ResetPasswordPage() {
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '');
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await action.run(async () => {
      await call(api.POST('/manage/v1/password_resets/confirm', { body: { token, password } }));
      return true;
    });
    if (ok) {
      window.history.replaceState(null, '', window.location.pathname);
      setDone(true);
    }
  };
  return (
    <AuthCard title="Choose a new password" footer={<Link to="/login">Back to log in</Link>}>
      {done ? (
        <Notice kind="success">Your password was changed. You can log in with it now.</Notice>
      ) : !token ? (
        <Notice kind="warning">This link has no reset token. Ask for a new link.</Notice>
      ) : (
        <form onSubmit={submit} className="form">
          <ErrorNotice error={action.error} />
          <Field label="New password" name="password" type="password" value={password} onChange={setPassword} autoComplete="new-password" hint="At least 10 characters." required error={action.error} />
          <button type="submit" className="button button-primary button-wide" disabled={action.busy}>
            Change password
          </button>
        </form>
      )}
    </AuthCard>
  );
}

/** The token of an emailed link: after '#', so it never reaches a server's logs. */
function fragmentToken(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

/**
 * The invitation link. Signed in, the account accepts it (the link proves the mailbox, the login
 * the account); otherwise a person without an account chooses a password, and one with an account
 * logs in here first. The password is never set for an account that has one.
 */
export function AcceptInvitationPage({ signedInAs, onSignedIn }: { signedInAs: string | null; onSignedIn: () => Promise<void> }) {
  const [token] = useState(fragmentToken);
  const [password, setPassword] = useState('');
  const [email, setEmail] = useState('');
  const [loginPassword, setLoginPassword] = useState('');
  const action = useAction();
  const finish = async (run: () => Promise<void>) => {
    const ok = await action.run(async () => {
      await run();
      return true;
    });
    if (ok) {
      window.history.replaceState(null, '', window.location.pathname);
      await onSignedIn();
      navigate('/', { replace: true });
    }
  };
  const join = () => call(api.POST('/manage/v1/invitations/join', { body: { token } }));
  const choosePassword = (event: FormEvent) => {
    event.preventDefault();
    void finish(async () => {
      const accepted = await call(api.POST('/manage/v1/invitations/accept', { body: { token, password } }));
      await signIn(accepted.user.email, password);
    });
  };
  const logInAndJoin = (event: FormEvent) => {
    event.preventDefault();
    void finish(async () => {
      await signIn(email, loginPassword);
      await join();
    });
  };
  if (!token) {
    return (
      <AuthCard title="Join the workspace">
        <Notice kind="warning">This link has no invitation token. Ask for a new invitation.</Notice>
      </AuthCard>
    );
  }
  if (signedInAs) {
    return (
      <AuthCard title="Join the workspace">
        <p className="muted">You are logged in as {signedInAs}. The invitation must have been sent to this address.</p>
        <ErrorNotice error={action.error} />
        <button type="button" className="button button-primary button-wide" disabled={action.busy} onClick={() => void finish(async () => void (await join()))}>
          Accept invitation
        </button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Join the workspace">
      <ErrorNotice error={action.error} />
      <form onSubmit={choosePassword} className="form" aria-labelledby="new-account">
        <h2 id="new-account">New here?</h2>
        <p className="muted">Choose a password for your account. You will log in with the email address the invitation was sent to.</p>
        <Field label="Password" name="password" type="password" value={password} onChange={setPassword} autoComplete="new-password" hint="At least 10 characters." required />
        <button type="submit" className="button button-primary button-wide" disabled={action.busy}>
          Accept invitation
        </button>
      </form>
      <form onSubmit={logInAndJoin} className="form" aria-labelledby="have-account">
        <h2 id="have-account">Already have an account?</h2>
        <p className="muted">Log in with the address the invitation was sent to, and accept it.</p>
        <Field label="Email" name="email" type="email" value={email} onChange={setEmail} autoComplete="username" required />
        <Field label="Your password" name="current-password" type="password" value={loginPassword} onChange={setLoginPassword} autoComplete="current-password" required />
        <button type="submit" className="button button-wide" disabled={action.busy}>
          Log in and accept
        </button>
      </form>
    </AuthCard>
  );
}

/** The verification link sign-up emailed: one click proves the address. */
export function VerifyEmailPage({ onVerified }: { onVerified: () => Promise<void> }) {
  const [token] = useState(fragmentToken);
  const [done, setDone] = useState(false);
  const action = useAction();
  const confirm = async () => {
    const ok = await action.run(async () => {
      await call(api.POST('/manage/v1/email_verifications/confirm', { body: { token } }));
      return true;
    });
    if (ok) {
      window.history.replaceState(null, '', window.location.pathname);
      setDone(true);
      await onVerified();
    }
  };
  return (
    <AuthCard title="Confirm your email address" footer={<Link to="/">Go to the dashboard</Link>}>
      {done ? (
        <Notice kind="success">Your email address is confirmed.</Notice>
      ) : !token ? (
        <Notice kind="warning">This link has no confirmation token. Log in and ask for a new link.</Notice>
      ) : (
        <>
          <ErrorNotice error={action.error} />
          <button type="button" className="button button-primary button-wide" disabled={action.busy} onClick={() => void confirm()}>
            Confirm email address
          </button>
        </>
      )}
    </AuthCard>
  );
}
