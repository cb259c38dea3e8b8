/** The top bar of signed-in users: brand, version, Entities, Admin, Language and Account menus. */
import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';
import { hasAnyRole, hasGlobalProcessPermission } from '@domain';
import { APP_VERSION_LABEL } from '../../../config';
import { Dropdown } from '../../../components/Dropdown';
import { ExternalLink } from '../../../components/ExternalLink';
import { IconUser } from '../../../components/icons';
import { useSession } from '../../account/session';
import { managementQueries, profileFlags, temporalUiLink } from '../api';
import { BrandMark, useAppName } from './Brand';
import { LanguageMenu } from './LanguageMenu';

export const ADMIN_PAGES = [
  'permissions',
  'user-management',
  'tracker',
  'metrics',
  'health',
  'configuration',
  'audits',
  'logs',
  'http-logs',
] as const;

function MenuLink({ to, children, testId }: { to: string; children: ReactNode; testId?: string }) {
  return (
    <li>
      <NavLink to={to} className="dropdown-item" data-testid={testId}>
        {children}
      </NavLink>
    </li>
  );
}

export function AccountMenu({ nav = true }: { nav?: boolean }) {
  const { t } = useTranslation();
  const { isAuthenticated, account } = useSession();
  return (
    <Dropdown
      nav={nav}
      align="end"
      testId="account-menu"
      label={
        <>
          <IconUser className="me-1" />
          <span>{isAuthenticated && account ? account.login : t('shell.menu.account.main')}</span>
        </>
      }
    >
      {isAuthenticated ? (
        <>
          <MenuLink to="/account/api-keys" testId="menu-api-keys">
            {t('shell.menu.account.apiKeys')}
          </MenuLink>
          <MenuLink to="/account/settings" testId="menu-settings">
            {t('shell.menu.account.settings')}
          </MenuLink>
          <MenuLink to="/account/password" testId="menu-password">
            {t('shell.menu.account.password')}
          </MenuLink>
          <li>
            <hr className="dropdown-divider" />
          </li>
          <MenuLink to="/lp/logout" testId="menu-logout">
            {t('shell.menu.account.logout')}
          </MenuLink>
        </>
      ) : (
        <>
          <MenuLink to="/lp/login" testId="menu-login">
            {t('shell.menu.account.login')}
          </MenuLink>
          <MenuLink to="/lp/register" testId="menu-register">
            {t('shell.menu.account.register')}
          </MenuLink>
        </>
      )}
    </Dropdown>
  );
}

export function Navbar() {
  const { t } = useTranslation();
  const { principal, account } = useSession();
  const appName = useAppName();
  const { data: info } = useQuery(managementQueries.info(account?.login));
  const flags = profileFlags(info);
  const [expanded, setExpanded] = useState(false);
  const global = !!principal && hasGlobalProcessPermission(principal);
  const temporalUi = temporalUiLink(info);

  return (
    <nav className="navbar navbar-expand-lg navbar-dark app-navbar sticky-top" data-testid="navbar">
      <div className="container-fluid">
        <div className="d-flex align-items-center me-auto">
          <Link
            to="/entity/process"
            className="navbar-brand d-flex align-items-center gap-2"
            data-testid="brand"
          >
            <BrandMark />
            <span className="fw-semibold">{appName}</span>
          </Link>
          <Link to="/changelog" className="version-label me-3" data-testid="version-label">
            {APP_VERSION_LABEL}
          </Link>
          {flags.ribbonEnv && !flags.isProd && (
            <span className="badge text-bg-warning me-3 text-uppercase" data-testid="ribbon">
              {t('shell.ribbon', { env: flags.ribbonEnv })}
            </span>
          )}
        </div>
        <button
          className="navbar-toggler"
          type="button"
          aria-expanded={expanded}
          aria-label={t('shell.menu.toggle')}
          onClick={() => setExpanded((e) => !e)}
        >
          <span className="navbar-toggler-icon" />
        </button>
        <div className={`collapse navbar-collapse ${expanded ? 'show' : ''}`}>
          <ul className="navbar-nav ms-auto align-items-lg-center">
            {global && (
              <Dropdown label={t('shell.menu.entities.main')} testId="entities-menu" align="end">
                <MenuLink to="/entity/process" testId="menu-entity-process">
                  {t('shell.menu.entities.process')}
                </MenuLink>
                <MenuLink to="/entity/node" testId="menu-entity-node">
                  {t('shell.menu.entities.node')}
                </MenuLink>
                {hasAnyRole(principal?.roles ?? [], ['ADMIN']) && (
                  <MenuLink to="/entity/llm-model" testId="menu-entity-llm-model">
                    {t('llmModels.title')}
                  </MenuLink>
                )}
              </Dropdown>
            )}
            {global && (
              <Dropdown label={t('shell.menu.admin.main')} testId="admin-menu" align="end">
                {ADMIN_PAGES.map((page) => (
                  <MenuLink key={page} to={`/admin/${page}`} testId={`menu-admin-${page}`}>
                    {t(`shell.menu.admin.${page}`)}
                  </MenuLink>
                ))}
                {flags.apiDocs && (
                  <MenuLink to="/admin/docs" testId="menu-admin-docs">
                    {t('shell.menu.admin.docs')}
                  </MenuLink>
                )}
                {temporalUi && (
                  <li>
                    <ExternalLink href={temporalUi} className="dropdown-item" testId="menu-admin-temporal">
                      {t('adminWatch.temporalUi')}
                    </ExternalLink>
                  </li>
                )}
              </Dropdown>
            )}
            <LanguageMenu />
            <AccountMenu />
          </ul>
        </div>
      </div>
    </nav>
  );
}
