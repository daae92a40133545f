import { Redirect, Route, Switch } from 'wouter';
import { AuthScreen } from './screens/AuthScreen';
import { ForgotPasswordScreen } from './screens/ForgotPasswordScreen';
import { LandingScreen } from './screens/LandingScreen';
import { LoginScreen } from './screens/LoginScreen';
import { NotFoundScreen } from './screens/NotFoundScreen';
import { RegisterScreen } from './screens/RegisterScreen';
import { ResetPasswordScreen } from './screens/ResetPasswordScreen';
import { VerifyEmailScreen } from './screens/VerifyEmailScreen';
import { signedInPaths } from './routePaths';

export function SignedOutRoutes() {
  return (
    <Switch>
      <Route path="/" component={LandingScreen} />
      <Route path="/homepage" component={LandingScreen} />
      <Route path="/auth" component={AuthScreen} />
      <Route path="/login" component={LoginScreen} />
      <Route path="/register" component={RegisterScreen} />
      <Route path="/forgot-password" component={ForgotPasswordScreen} />
      <Route path="/reset-password" component={ResetPasswordScreen} />
      <Route path="/verify-email" component={VerifyEmailScreen} />
      {signedInPaths.map((path) => (
        <Route key={path} path={path}>
          <Redirect to="/login" replace />
        </Route>
      ))}
      <Route>
        <div className="min-h-dvh bg-slate-50">
          <NotFoundScreen />
        </div>
      </Route>
    </Switch>
  );
}
