/**
 * The composer on a phone (at most 768 px wide): the form and the preview as two tabs (React Aria
 * Components' Tabs). Loaded on demand by pages/Composer.tsx, so wide screens never load it.
 */
import type { ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components/Tabs';

/** `compose` (the form and the save button) and `preview` as tabs; `count` is the number of previews. */
export default function ComposerTabs({ compose, preview, count }: { compose: ReactNode; preview: ReactNode; count: number }) {
  return (
    <Tabs className="composer-tabs">
      <TabList aria-label="Composer view" className="tab-list">
        <Tab id="compose" className="tab">Compose</Tab>
        <Tab id="preview" className="tab">Preview{count ? ` (${count})` : ''}</Tab>
      </TabList>
      <TabPanel id="compose" className="composer-main">{compose}</TabPanel>
      <TabPanel id="preview" className="composer-preview-panel">{preview}</TabPanel>
    </Tabs>
  );
}
